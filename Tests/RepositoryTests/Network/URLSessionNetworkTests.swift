import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Repository
import Streams
import Testing
import TestSupport

/// Real requests against a server of our own on 127.0.0.1. Every wait is bounded and the
/// server is stopped on every path (`defer`).
@Suite(.resourceCheck) struct URLSessionNetworkTests {
    static let json = Data(#"[{"id":1,"name":"Margherita","price_was":7.5}]"#.utf8)

    func makeServer() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/pizzas.json": .respond(status: 200, body: Self.json),
            "/broken": .respond(status: 500, body: Data("kitchen on fire".utf8)),
            "/empty": .respond(status: 200, body: Data()),
            "/slow": .respondAfter(seconds: 60, status: 200, body: Self.json),
            "/hang": .hang,
            "/big": .respond(status: 200, contentType: "application/octet-stream", body: Data(repeating: 1, count: 64 * 1024)),
            "/stream": .stream(total: 256 * 1024 * 1024),
            "/moved": .redirect(status: 302, location: "/pizzas.json"),
            "/menu": .redirect(status: 301, location: "/menu/"),
            "/menu/": .respond(status: 200, body: Self.json),
            "/elsewhere": .redirect(status: 302, location: "http://localhost:{port}/pizzas.json"),
        ])
    }

    @Test func okWithJSONIsDeliveredOnTheNamedScheduler() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: MainScheduler.asyncInstance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/pizzas.json")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        let done = MainScheduler.run(until: { recorder.events.last?.isStopEvent ?? false }, timeout: 30)
        #expect(done)
        #expect(recorder.events == [.next(Self.json), .completed])
        #expect(recorder.deliveredOnMainScheduler == [true, true])
        #expect(server.requests == ["GET /pizzas.json"])
    }

    @Test func methodAndHeadersAreSent() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(additionalHeaders: ["X-Test": "1"]), scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/pizzas.json"), method: .post).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        #expect(recorder.elements == [Self.json])
        #expect(server.requests == ["POST /pizzas.json"])
    }

    @Test func notFoundIsBadStatusWithTheBody() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/no-such-thing")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        #expect(recorder.events == [.error(NetworkError.badStatus(code: 404, body: Data("no route for /no-such-thing".utf8)))])
    }

    @Test func serverErrorIsBadStatus() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/broken")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        #expect(recorder.events == [.error(NetworkError.badStatus(code: 500, body: Data("kitchen on fire".utf8)))])
    }

    @Test func emptyBodyIsAnError() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/empty")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        #expect(recorder.events == [.error(NetworkError.emptyBody)])
    }

    @Test func slowResponseHitsTheTimeout() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(timeout: 1), scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/slow")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination(timeout: 45))
        #expect(recorder.events == [.error(NetworkError.timedOut)])
    }

    @Test func theTimeoutBoundsTheWholeRequestNotOnlySilence() throws {
        // The stream never pauses long enough for an idle timeout, yet takes far longer than 1 s.
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(timeout: 1, maximumBodySize: 1 << 30),
            scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/stream")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination(timeout: 45))
        #expect(recorder.events == [.error(NetworkError.timedOut)])
        #expect(server.wait { $0.streamed("/stream") != nil })
        #expect((server.streamed("/stream") ?? .max) < 256 * 1024 * 1024)
    }

    @Test func refusedConnectionIsUnreachable() throws {
        let port = try TestHTTPServer.unusedPort()
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: URL(string: "http://127.0.0.1:\(port)/pizzas.json")!).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        #expect(recorder.events.count == 1)
        guard case .unreachable? = recorder.error as? NetworkError else {
            Issue.record("expected NetworkError.unreachable, got \(String(describing: recorder.error))")
            return
        }
    }

    @Test func disposingMidRequestCancelsItOnTheWire() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/hang")).asObservable().subscribe(recorder)
        #expect(server.wait { $0.requests == ["GET /hang"] })
        subscription.dispose()
        #expect(server.wait { $0.closedByClient == ["/hang"] })
        #expect(recorder.events.isEmpty)
    }

    @Test func bodyOverTheLimitWithContentLengthFails() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(maximumBodySize: 1_000), scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/big")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        #expect(recorder.events == [.error(NetworkError.tooLarge(limit: 1_000))])
    }

    @Test func streamedBodyOverTheLimitStopsTheTransfer() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(maximumBodySize: 100_000), scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/stream")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        #expect(recorder.events == [.error(NetworkError.tooLarge(limit: 100_000))])
        #expect(server.wait { $0.streamed("/stream") != nil })
        #expect((server.streamed("/stream") ?? .max) < 256 * 1024 * 1024)
    }

    @Test func aSameHostRedirectIsFollowed() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/moved")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        #expect(recorder.events == [.next(Self.json), .completed])
        #expect(server.requests == ["GET /moved", "GET /pizzas.json"])
    }

    @Test func aRedirectToTheSamePathWithATrailingSlashIsFollowed() throws {
        // What python3 -m http.server answers for a folder asked without its slash.
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/menu")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        #expect(recorder.events == [.next(Self.json), .completed])
        #expect(server.requests == ["GET /menu", "GET /menu/"])
    }

    @Test func aRedirectToAnotherHostIsNotFollowedByDefault() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let recorder = EventRecorder<Data>()
        let subscription = network.fetch(url: server.url("/elsewhere")).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.waitForTermination())
        let location = "http://localhost:\(server.port)/pizzas.json"
        #expect(recorder.events == [.error(NetworkError.badStatus(code: 302, body: Data("moved to \(location)".utf8)))])
        #expect(server.requests == ["GET /elsewhere"])
    }

    @Test func redirectPoliciesFollowEverythingOrNothing() throws {
        let server = try makeServer()
        defer { server.stop() }
        let follows = URLSessionNetwork(configuration: NetworkConfiguration(redirects: .follow), scheduler: ImmediateScheduler.instance)
        let followed = EventRecorder<Data>()
        let first = follows.fetch(url: server.url("/elsewhere")).asObservable().subscribe(followed)
        defer { first.dispose() }
        #expect(followed.waitForTermination())
        #expect(followed.events == [.next(Self.json), .completed])   // localhost is the same server

        let never = URLSessionNetwork(configuration: NetworkConfiguration(redirects: .never), scheduler: ImmediateScheduler.instance)
        let refused = EventRecorder<Data>()
        let second = never.fetch(url: server.url("/moved")).asObservable().subscribe(refused)
        defer { second.dispose() }
        #expect(refused.waitForTermination())
        #expect(refused.events == [.error(NetworkError.badStatus(code: 302, body: Data("moved to /pizzas.json".utf8)))])
    }

    @Test func eachSubscriptionSendsItsOwnRequest() throws {
        let server = try makeServer()
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let fetch = network.fetch(url: server.url("/pizzas.json")).asObservable()
        let first = EventRecorder<Data>()
        let second = EventRecorder<Data>()
        let subscriptions = [fetch.subscribe(first), fetch.subscribe(second)]
        defer { subscriptions.forEach { $0.dispose() } }
        #expect(first.waitForTermination())
        #expect(second.waitForTermination())
        #expect(first.events == [.next(Self.json), .completed])
        #expect(second.events == [.next(Self.json), .completed])
        #expect(server.requests == ["GET /pizzas.json", "GET /pizzas.json"])
    }
}
