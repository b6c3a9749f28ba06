import Foundation
import HeadlessUI
import Repository
import Streams

/// One search result, as an iTunes-search-like API sends it.
public struct TrackResult: Decodable, Hashable, Sendable {
    /// The track's title.
    public var trackName: String
    /// Who plays it.
    public var artistName: String
    /// A line about it, when there is one.
    public var shortDescription: String?
    /// A 60×60 artwork URL.
    public var artworkUrl60: URL
}

/// A search response: `{"resultCount": n, "results": [...]}`.
public struct SearchResponse: Decodable, Sendable {
    /// How many results.
    public var resultCount: Int
    /// The results.
    public var results: [TrackResult]
}

/// Why a search could not be shown.
public enum TracksError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The body is not a search response; `reason` says what is wrong.
    case couldNotDecode(reason: String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .couldNotDecode(let reason): return "the search results could not be read: \(reason)"
        }
    }
}

/// The embedded search API of the Tracks demo: 200 invented tracks with generated artwork,
/// some of whose artwork URLs deliberately fail (404), to show the error line.
public enum TracksAPI {
    /// The address of the embedded API.
    public static let embeddedBaseURL = URL(string: "http://tracks.local")!
    /// How many tracks the fixtures hold.
    public static let trackCount = 200
    /// Every `failingEvery`-th track's artwork answers 404.
    public static let failingEvery = 17

    private static let firstWords = ["Velvet", "Paper", "Neon", "Quiet", "Copper", "Silver", "Hollow", "Amber", "Lunar", "Static"]
    private static let secondWords = ["Harbour", "Lanterns", "Orchard", "Machines", "Tides", "Echoes", "Comets", "Gardens", "Signals", "Rivers"]
    private static let titles = ["Slow Morning", "Midnight Ferry", "Glass Houses", "North Window", "Paper Boats", "Open Roads", "Low Tide", "Little Fires", "Blue Hour", "Wild Clover"]

    /// The fixture tracks, for `baseURL`.
    ///
    /// - Parameter baseURL: Where the artwork is served.
    /// - Returns: 200 results, always the same.
    public static func tracks(baseURL: URL = embeddedBaseURL) -> [TrackResult] {
        (0..<trackCount).map { index in
            TrackResult(
                trackName: "\(titles[index % titles.count]) \(index / titles.count + 1)",
                artistName: "The \(firstWords[index % firstWords.count]) \(secondWords[(index / firstWords.count) % secondWords.count])",
                shortDescription: index % 3 == 0 ? nil : "Track \(index + 1) of the demo catalogue",
                artworkUrl60: baseURL.appendingPathComponent("artwork/\(index + 1).png"))
        }
    }

    /// Whether track `number` (1-based) has artwork that fails to load.
    public static func artworkFails(_ number: Int) -> Bool { number % failingEvery == 0 }

    /// The `GET /search` body.
    public static func searchJSON(baseURL: URL = embeddedBaseURL) -> Data {
        let results = tracks(baseURL: baseURL).map { track -> String in
            var fields = [#""trackName": "\#(track.trackName)""#, #""artistName": "\#(track.artistName)""#]
            if let description = track.shortDescription { fields.append(#""shortDescription": "\#(description)""#) }
            fields.append(#""artworkUrl60": "\#(track.artworkUrl60.absoluteString)""#)
            return "{" + fields.joined(separator: ", ") + "}"
        }
        return Data(#"{"resultCount": \#(results.count), "results": [\#(results.joined(separator: ", "))]}"#.utf8)
    }

    /// A generated 8×8 artwork for track `number`.
    public static func artwork(_ number: Int) -> Data {
        let color = Image.Pixel(r: UInt8((number * 37) % 256), g: UInt8((number * 91) % 256), b: UInt8((number * 53) % 256))
        return Image(width: 8, height: 8, color: color).pngData()
    }

    /// Routes for a ``FixtureNetwork``: `/search` and every artwork that does not fail.
    ///
    /// - Parameter latency: How long each answer takes.
    /// - Returns: Routes by path.
    public static func routes(latency: RxTimeInterval) -> [String: FixtureNetwork.Route] {
        var routes: [String: FixtureNetwork.Route] = ["/search": .data(searchJSON(), delay: latency)]
        for number in 1...trackCount where !artworkFails(number) {
            routes["/artwork/\(number).png"] = .data(artwork(number), delay: latency)
        }
        return routes
    }

    /// Decodes a search body.
    ///
    /// - Parameter data: The body.
    /// - Returns: The results.
    /// - Throws: ``TracksError/couldNotDecode(reason:)``.
    public static func decode(_ data: Data) throws -> [TrackResult] {
        do {
            return try JSONDecoder().decode(SearchResponse.self, from: data).results
        } catch let error as DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                throw TracksError.couldNotDecode(reason: "missing \(key.stringValue) at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                throw TracksError.couldNotDecode(reason: "bad value at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)")
            @unknown default:
                throw TracksError.couldNotDecode(reason: "\(error)")
            }
        }
    }
}
