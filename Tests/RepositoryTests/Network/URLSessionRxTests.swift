import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Repository
import Streams
import StreamsBlocking
import TestSupport
import Testing

/// A URL loader that answers from a table instead of the network.
final class StubbedHTTP: URLProtocol {
    static let answers: [String: (status: Int, body: String)] = [
        "/menu": (200, #"{"pizzas":["Margherita","Diavola"]}"#),
        "/empty": (204, ""),
        "/broken": (200, "{not json"),
        "/missing": (404, "no such page"),
    ]

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url else { return }
        if url.path == "/plain" {
            // A response that is not an HTTP one, as a non-HTTP protocol gives.
            let plain = URLResponse(url: url, mimeType: "text/plain", expectedContentLength: 5, textEncodingName: nil)
            client?.urlProtocol(self, didReceive: plain, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: Data("hello".utf8))
            client?.urlProtocolDidFinishLoading(self)
            return
        }
        let answer = Self.answers[url.path] ?? (500, "")
        let response = HTTPURLResponse(url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: nil)!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(answer.body.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}

    static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubbedHTTP.self]
        return URLSession(configuration: configuration)
    }
}

/// RxCocoa's `URLSession.rx`, from `Repository`.
@Suite(.resourceCheck) struct URLSessionRxTests {
    @Test func dataAndJSONOfASuccessfulRequest() throws {
        URLSession.rx.shouldLogRequest = { _ in false }
        let session = StubbedHTTP.session()
        let url = URL(string: "https://pizzaiolo.test/menu")!
        let data = try session.rx.data(request: URLRequest(url: url)).toBlocking(timeout: 10).single()
        #expect(String(decoding: data, as: UTF8.self).contains("Diavola"))
        let json = try session.rx.json(url: url).toBlocking(timeout: 10).single() as? [String: [String]]
        #expect(json == ["pizzas": ["Margherita", "Diavola"]])
        let (response, body) = try session.rx.response(request: URLRequest(url: url)).toBlocking(timeout: 10).single()
        #expect(response.statusCode == 200)
        #expect(!body.isEmpty)
        let empty = try session.rx.json(request: URLRequest(url: URL(string: "https://pizzaiolo.test/empty")!)).toBlocking(timeout: 10).single()
        #expect(empty is NSNull)
    }

    @Test func aFailedStatusAndABodyThatIsNotJSONAreTypedErrors() throws {
        URLSession.rx.shouldLogRequest = { _ in false }
        let session = StubbedHTTP.session()
        do {
            _ = try session.rx.data(request: URLRequest(url: URL(string: "https://pizzaiolo.test/missing")!)).toBlocking(timeout: 10).single()
            Issue.record("a 404 must fail")
        } catch RxCocoaURLError.httpRequestFailed(let response, let data) {
            #expect(response.statusCode == 404)
            #expect(data.map { String(decoding: $0, as: UTF8.self) } == "no such page")
        }
        do {
            _ = try session.rx.json(url: URL(string: "https://pizzaiolo.test/broken")!).toBlocking(timeout: 10).single()
            Issue.record("a body that is not JSON must fail")
        } catch RxCocoaURLError.deserializationError {
        }
        do {
            _ = try session.rx.response(request: URLRequest(url: URL(string: "https://pizzaiolo.test/plain")!)).toBlocking(timeout: 10).single()
            Issue.record("a response that is not HTTP must fail")
        } catch RxCocoaURLError.nonHTTPResponse {
        }
    }
}
