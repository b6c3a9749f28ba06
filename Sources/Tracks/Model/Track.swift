import Foundation

/// One result of a track search, as the iTunes Search API spells it.
///
/// Only the fields the table shows are decoded; anything else in a result is ignored.
///
///     {"trackName": "Paper Lanterns", "artistName": "The Velvet Foxes",
///      "shortDescription": "A slow, warm ballad.", "artworkUrl60": "https://tracks.example/artwork/0.png"}
public struct Track: Codable, Equatable, Hashable, Sendable {
    /// The track's title; some results (podcasts, audiobooks) have none.
    public var trackName: String?
    /// Who performs it.
    public var artistName: String
    /// A one-line description; may be missing.
    public var shortDescription: String?
    /// The 60×60 artwork; a relative address is resolved against the search request's URL.
    public var artworkUrl60: URL?

    /// Creates a track.
    ///
    /// - Parameters:
    ///   - trackName: The title.
    ///   - artistName: The performer.
    ///   - shortDescription: A one-line description.
    ///   - artworkUrl60: The artwork's address.
    public init(trackName: String?, artistName: String, shortDescription: String?, artworkUrl60: URL?) {
        self.trackName = trackName
        self.artistName = artistName
        self.shortDescription = shortDescription
        self.artworkUrl60 = artworkUrl60
    }
}

/// The body of a search answer: `{"resultCount": 2, "results": [ … ]}`.
public struct TrackSearchResponse: Codable, Equatable, Sendable {
    /// How many results the server says it sent (optional, as the field is informative).
    public var resultCount: Int?
    /// The tracks, in the server's order.
    public var results: [Track]

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - results: The tracks.
    ///   - resultCount: The count announced; `results.count` by default.
    public init(results: [Track], resultCount: Int? = nil) {
        self.results = results
        self.resultCount = resultCount ?? results.count
    }
}

/// Why a search answer could not be decoded: one case per kind of mistake, naming the result
/// and the field so that a log line says what to fix.
public enum TrackDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The body is not JSON at all (an HTML error page, a truncated transfer).
    case notJSON
    /// The JSON has no `results` array at the top level.
    case missingResults
    /// Result `index` lacks the required `field`.
    case missingField(index: Int, field: String)
    /// Result `index` has `field` with the wrong kind of value (a number for a string, …).
    case wrongType(index: Int, field: String)
    /// Result `index` has an `artworkUrl60` that is not a URL.
    case badURL(index: Int, value: String)
    /// Result `index` is not an object, or is otherwise unreadable.
    case malformedResult(index: Int)

    /// A sentence naming the result and the field, e.g.
    /// `result 3: "artistName" is missing`.
    public var description: String {
        switch self {
        case .notJSON: return "the answer is not JSON"
        case .missingResults: return "the answer has no \"results\" array"
        case .missingField(let index, let field): return "result \(index): \"\(field)\" is missing"
        case .wrongType(let index, let field): return "result \(index): \"\(field)\" has the wrong type"
        case .badURL(let index, let value): return "result \(index): \"artworkUrl60\" is not a URL: \(value)"
        case .malformedResult(let index): return "result \(index) is not a track object"
        }
    }
}

extension TrackSearchResponse {
    /// Decodes a search answer.
    ///
    ///     let tracks = try TrackSearchResponse.decode(data, relativeTo: searchURL).results
    ///
    /// Relative artwork addresses are resolved against `baseURL` (the search request's URL),
    /// so a server may answer `"/artwork/7.png"`.
    ///
    /// - Parameters:
    ///   - data: The response body.
    ///   - baseURL: What relative artwork URLs are resolved against; without it, a relative
    ///     address is a ``TrackDecodingError/badURL(index:value:)``.
    /// - Returns: The decoded response.
    /// - Throws: ``TrackDecodingError`` naming the result and field at fault.
    public static func decode(_ data: Data, relativeTo baseURL: URL? = nil) throws(TrackDecodingError) -> TrackSearchResponse {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .notJSON
        }
        guard let object = json as? [String: Any], let results = object["results"] as? [Any] else {
            throw .missingResults
        }
        var tracks: [Track] = []
        tracks.reserveCapacity(results.count)
        for (index, result) in results.enumerated() {
            tracks.append(try decodeTrack(result, index: index, baseURL: baseURL))
        }
        return TrackSearchResponse(results: tracks, resultCount: object["resultCount"] as? Int)
    }

    private static func decodeTrack(_ value: Any, index: Int, baseURL: URL?) throws(TrackDecodingError) -> Track {
        guard let fields = value as? [String: Any] else { throw .malformedResult(index: index) }
        func string(_ field: String, required: Bool) throws(TrackDecodingError) -> String? {
            switch fields[field] {
            case nil, is NSNull:
                if required { throw .missingField(index: index, field: field) }
                return nil
            case let text as String:
                return text
            default:
                throw .wrongType(index: index, field: field)
            }
        }
        let artist = try string("artistName", required: true) ?? ""
        let name = try string("trackName", required: false)
        let description = try string("shortDescription", required: false)
        var artwork: URL?
        if let address = try string("artworkUrl60", required: false) {
            guard !address.isEmpty, let url = URL(string: address, relativeTo: baseURL)?.absoluteURL, url.scheme != nil else {
                throw .badURL(index: index, value: address)
            }
            artwork = url
        }
        return Track(trackName: name, artistName: artist, shortDescription: description, artworkUrl60: artwork)
    }
}
