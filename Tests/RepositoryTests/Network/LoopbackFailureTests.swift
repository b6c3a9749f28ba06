import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ObjectStore
import Repository
import Streams
import Testing
import TestSupport

/// The failures a real server produces, each told apart, and what a screen shows for them.
@Suite(.resourceCheck) struct LoopbackFailureTests {
    static let page = Data(#"[{"id":1,"name":"Margherita","price_was":7.5}]"#.utf8)

    func fetch(_ network: Network, _ url: URL) -> EventRecorder<Data> {
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: url).asObservable().subscribe(recorder)
        #expect(recorder.waitForTermination(timeout: 60))
        subscription.dispose()
        return recorder
    }

    @Test func aConnectionDroppedMidBodyIsConnectionLostNotUnreachable() throws {
        let server = try TestHTTPServer(routes: ["/cut": .dropAfter(sentBytes: 10, body: Data(repeating: 0x61, count: 10_000))])
        defer { server.stop() }
        let recorder = fetch(URLSessionNetwork(scheduler: ImmediateScheduler.instance), server.url("/cut"))
        #expect(recorder.error as? NetworkError == .connectionLost)
        #expect(server.requestCount("/cut") == 1)
    }

    @Test func aRefusedConnectionIsUnreachable() throws {
        let port = try TestHTTPServer.unusedPort()
        let recorder = fetch(URLSessionNetwork(scheduler: ImmediateScheduler.instance), URL(string: "http://127.0.0.1:\(port)/x")!)
        guard case .unreachable? = recorder.error as? NetworkError else {
            Issue.record("expected unreachable, got \(String(describing: recorder.error))")
            return
        }
    }

    @Test func aSilentServerIsTimedOut() throws {
        let server = try TestHTTPServer(routes: ["/hang": .hang])
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(timeout: 1), scheduler: ImmediateScheduler.instance)
        #expect(fetch(network, server.url("/hang")).error as? NetworkError == .timedOut)
    }

    @Test func aServerErrorIsBadStatus() throws {
        let server = try TestHTTPServer(routes: ["/boom": .respond(status: 500, body: Data("down".utf8))])
        defer { server.stop() }
        let recorder = fetch(URLSessionNetwork(scheduler: ImmediateScheduler.instance), server.url("/boom"))
        #expect(recorder.error as? NetworkError == .badStatus(code: 500, body: Data("down".utf8)))
    }

    @Test func aDelayedAnswerArrives() throws {
        let server = try TestHTTPServer(routes: ["/late": .respondAfter(seconds: 0.2, status: 200, body: Self.page)])
        defer { server.stop() }
        #expect(fetch(URLSessionNetwork(scheduler: ImmediateScheduler.instance), server.url("/late")).elements == [Self.page])
    }

    @Test func aMalformedBodyFailsInTheMapperAndTheStoreKeepsItsRows() throws {
        let server = try TestHTTPServer(routes: [
            "/good": .respond(status: 200, body: Self.page),
            "/bad": .respond(status: 200, body: Data(#"[{"id": 2, "name": "#.utf8)),
        ])
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let store = try makePizzaStore()
        let mapper = Mapper<[Pizza], Pizza, PizzaViewModel>(store: store, viewModel: PizzaViewModel.init)
        _ = try mapper.map(fetch(network, server.url("/good")).elements[0])
        let bad = fetch(network, server.url("/bad")).elements[0]
        #expect(throws: MapperError.self) { try mapper.map(bad) }
        #expect(storedPizzas(store).map(\.id) == [1])
    }

    @Test func everyErrorHasASentenceForAScreen() {
        let errors: [Error] = [
            NetworkError.unreachable(underlying: URLError(.cannotConnectToHost)),
            NetworkError.connectionLost,
            NetworkError.timedOut,
            NetworkError.badStatus(code: 503, body: Data()),
            NetworkError.emptyBody,
            NetworkError.cancelled,
            NetworkError.tooLarge(limit: 10),
            MapperError.couldNotParse(path: "$[0].id", reason: "missing field"),
        ]
        let sentences = errors.map(\.localizedDescription)
        #expect(sentences == [
            "The server could not be reached.",
            "The connection was lost before the answer arrived.",
            "The server took too long to answer.",
            "The server answered with an error (HTTP 503).",
            "The server sent an empty answer.",
            "The request was cancelled.",
            "The server's answer is too large.",
            "The server's answer could not be read.",
        ])
        #expect((MapperError.couldNotParse(path: "$[0].id", reason: "missing field") as LocalizedError).failureReason == "$[0].id: missing field")
    }
}
