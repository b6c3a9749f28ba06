import Foundation
import Repository
import Streams

/// The search endpoint of an iTunes-search-like server, over any ``Network``.
///
///     let api = TracksAPI(network: network, baseURL: URL(string: "http://127.0.0.1:8080")!)
///     api.search(term: "midnight")      // GET /search?term=midnight&limit=200
///         .subscribe(onSuccess: { tracks in … }, onFailure: { error in … })
///
/// A failure is either the network's ``NetworkError`` or a ``TrackDecodingError``.
public struct TracksAPI: Sendable {
    /// Where requests go.
    public let network: Network
    /// The server's root, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The most results asked for.
    public let limit: Int

    /// Creates the API.
    ///
    /// - Parameters:
    ///   - network: Sends the requests.
    ///   - baseURL: The server's root.
    ///   - limit: The most results asked for; 200 by default.
    public init(network: Network, baseURL: URL, limit: Int = 200) {
        self.network = network
        self.baseURL = baseURL
        self.limit = limit
    }

    /// The address of a search: `<baseURL>/search?term=<term>&limit=<limit>`.
    ///
    /// - Parameter term: What to search for; percent-encoded as needed.
    /// - Returns: The URL.
    public func searchURL(term: String) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("search"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "term", value: term), URLQueryItem(name: "limit", value: String(limit))]
        return components.url!
    }

    /// Searches tracks: one request, decoded.
    ///
    ///     search(term:): ------[tracks]|
    ///     search(term:): ------x            (NetworkError or TrackDecodingError)
    ///
    /// - Parameter term: What to search for.
    /// - Returns: A single of the tracks in the server's order.
    public func search(term: String) -> Single<[Track]> {
        let url = searchURL(term: term)
        return network.fetch(url: url).map { data in
            try TrackSearchResponse.decode(data, relativeTo: url).results
        }
    }
}
