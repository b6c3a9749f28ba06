import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Repository
import Streams

/// A ``Network`` that pages search answers as the iTunes Search API does: a `/search` request's
/// answer from the wrapped network is cut to its `offset` and `limit` query items, so a fixture
/// that knows the whole catalogue answers page by page. Other requests, and failures, pass
/// through unchanged.
///
///     let network = OffsetPagedSearch(TracksFixtures.network(scheduler: scheduler))
///     TracksAPI(network: network, baseURL: TracksFixtures.baseURL).search(term: "x", offset: 50)
///     // the fixture's 200 results, 50 to 99
public struct OffsetPagedSearch: Network {
    /// The network whose `/search` answers hold every result.
    public let base: Network

    /// Wraps `base`.
    ///
    /// - Parameter base: Answers `/search` with the whole catalogue.
    public init(_ base: Network) {
        self.base = base
    }

    /// The wrapped network's answer, cut to the request's page for `/search`.
    ///
    ///     fetch(/search?…&limit=50&offset=50): ----{results 50…99}|
    ///
    /// - Parameter request: The request.
    /// - Returns: The answer; a body that is not a search answer passes through unchanged.
    public func fetch(_ request: URLRequest) -> Single<Data> {
        guard let url = request.url, url.path.hasSuffix("/search") else { return base.fetch(request) }
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> Int? { items.first { $0.name == name }?.value.flatMap { Int($0) } }
        let offset = max(0, value("offset") ?? 0)
        let limit = value("limit")
        return base.fetch(request).map { Self.page(of: $0, offset: offset, limit: limit) }
    }

    /// `body`'s results from `offset`, at most `limit` of them, with `resultCount` saying how
    /// many; `body` itself when it is not a search answer.
    static func page(of body: Data, offset: Int, limit: Int?) -> Data {
        guard var object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let results = object["results"] as? [Any] else { return body }
        let start = min(offset, results.count)
        let end = limit.map { min(results.count, start + max(0, $0)) } ?? results.count
        object["results"] = Array(results[start..<end])
        object["resultCount"] = end - start
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? body
    }
}
