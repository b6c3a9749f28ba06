import Foundation
import Repository
import Streams

/// The search endpoint of an iTunes-search-like server, over any ``Network``.
///
///     let api = TracksAPI(network: network, baseURL: URL(string: "http://127.0.0.1:8080")!)
///     api.search(term: "midnight")              // GET /search?term=midnight&limit=50
///     api.search(term: "midnight", offset: 50)  // GET /search?term=midnight&limit=50&offset=50
///         .subscribe(onSuccess: { tracks in … }, onFailure: { error in … })
///
/// Results come in pages of ``limit``, as the iTunes Search API pages them with `limit` and
/// `offset`; a page shorter than ``limit`` is the last. A failure is either the network's ``NetworkError`` or a ``TrackDecodingError``.
public struct TracksAPI: Sendable {
    /// Where requests go.
    public let network: Network
    /// The server's root, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The most results asked for at once: the size of a page.
    public let limit: Int

    /// Creates the API.
    ///
    /// - Parameters:
    ///   - network: Sends the requests.
    ///   - baseURL: The server's root.
    ///   - limit: The size of a page; 50 by default.
    public init(network: Network, baseURL: URL, limit: Int = 50) {
        self.network = network
        self.baseURL = baseURL
        self.limit = limit
    }

    /// The address of a search: `<baseURL>/search?term=<term>&limit=<limit>`, with
    /// `&offset=<offset>` after the first page.
    ///
    /// - Parameters:
    ///   - term: What to search for; percent-encoded as needed.
    ///   - offset: How many results to skip; 0 (the first page) by default.
    /// - Returns: The URL.
    public func searchURL(term: String, offset: Int = 0) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("search"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "term", value: term), URLQueryItem(name: "limit", value: String(limit))]
        if offset > 0 { components.queryItems?.append(URLQueryItem(name: "offset", value: String(offset))) }
        return components.url!
    }

    /// Searches tracks: one page, one request, decoded.
    ///
    ///     search(term:): ------[tracks]|
    ///     search(term:): ------x            (NetworkError or TrackDecodingError)
    ///
    /// - Parameters:
    ///   - term: What to search for.
    ///   - offset: How many results to skip; 0 (the first page) by default.
    /// - Returns: A single of at most ``limit`` tracks in the server's order.
    public func search(term: String, offset: Int = 0) -> Single<[Track]> {
        let url = searchURL(term: term, offset: offset)
        return network.fetch(url: url).map { data in
            try TrackSearchResponse.decode(data, relativeTo: url).results
        }
    }
}
