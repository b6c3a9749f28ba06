import Foundation
import ObjectStore

/// A search result as the store keeps it: the track, the term it was found for and its
/// position in the results, so that the pages of a search are one stored list.
///
///     StoredTrack(track, term: "midnight", position: 57)      // key "midnight#57"
public struct StoredTrack: StoreObject, Equatable, Sendable {
    /// `term#position`: a page fetched again replaces the rows it had.
    public static var primaryKey: KeyPath<StoredTrack, String> { \.key }
    /// `term#position`.
    public var key: String
    /// The search term.
    public var term: String
    /// The position in the search's results (0 for the first result).
    public var position: Int
    /// The track's title, if it has one.
    public var trackName: String?
    /// Who performs it.
    public var artistName: String
    /// A one-line description, if any.
    public var shortDescription: String?
    /// The artwork's absolute address, if any.
    public var artworkAddress: String?

    /// Stores `track` as result `position` of the search for `term`.
    ///
    /// - Parameters:
    ///   - track: The decoded track.
    ///   - term: The search term.
    ///   - position: The track's position in the results.
    public init(_ track: Track, term: String, position: Int) {
        key = "\(term)#\(position)"
        self.term = term
        self.position = position
        trackName = track.trackName
        artistName = track.artistName
        shortDescription = track.shortDescription
        artworkAddress = track.artworkUrl60?.absoluteString
    }

    /// The track again.
    public var track: Track {
        Track(trackName: trackName, artistName: artistName, shortDescription: shortDescription,
              artworkUrl60: artworkAddress.flatMap(URL.init(string:)))
    }
}
