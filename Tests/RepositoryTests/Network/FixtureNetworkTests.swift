import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport

@Suite(.resourceCheck) struct FixtureNetworkTests {
    let base = URL(string: "https://api.example.com")!

    func body(_ text: String) -> Data { Data(text.utf8) }

    @Test func answersAfterTheRouteDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/pizzas": .json("[1]", delay: .seconds(30))])
        let res = scheduler.start { network.fetch(url: base.appendingPathComponent("pizzas")).asObservable() }
        #expect(res.events == [.next(230, body("[1]")), .completed(230)])
        #expect(network.requestCount(for: "/pizzas") == 1)
        #expect(network.cancelledRequestCount == 0)
    }

    @Test func isASingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/ok": .json("1"), "/ko": .status(500)])
        var outcomes: [String] = []
        scheduler.scheduleAt(10) {
            _ = network.fetch(url: base.appendingPathComponent("ok")).subscribe(
                onSuccess: { outcomes.append("success \(String(decoding: $0, as: UTF8.self)) at \(scheduler.clock)") },
                onFailure: { outcomes.append("failure \($0)") })
            _ = network.fetch(url: base.appendingPathComponent("ko")).subscribe(
                onSuccess: { _ in outcomes.append("unexpected success") },
                onFailure: { outcomes.append("failure \($0) at \(scheduler.clock)") })
        }
        scheduler.start()
        #expect(outcomes == ["success 1 at 11", "failure NetworkError.badStatus(code: 500, body: 0 bytes) at 11"])
    }

    @Test func nothingIsSentBeforeSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/pizzas": .json("[]")])
        _ = network.fetch(url: base.appendingPathComponent("pizzas")).asObservable()
        scheduler.start()
        #expect(network.totalRequestCount == 0)
    }

    @Test func statusOutsideTwoHundredsFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/missing": .status(404, body: "nope", delay: .seconds(5))])
        let missing = scheduler.start { network.fetch(url: base.appendingPathComponent("missing")).asObservable() }
        #expect(missing.events == [.error(205, NetworkError.badStatus(code: 404, body: body("nope")))])

        let scheduler2 = TestScheduler(initialClock: 0)
        let network2 = FixtureNetwork(scheduler: scheduler2, routes: ["/broken": .status(500), "/redirect": .status(302, body: "x")])
        let broken = scheduler2.createObserver(Data.self)
        let redirect = scheduler2.createObserver(Data.self)
        scheduler2.scheduleAt(10) { _ = network2.fetch(url: base.appendingPathComponent("broken")).asObservable().subscribe(broken) }
        scheduler2.scheduleAt(10) { _ = network2.fetch(url: base.appendingPathComponent("redirect")).asObservable().subscribe(redirect) }
        scheduler2.start()
        #expect(broken.events == [.error(11, NetworkError.badStatus(code: 500, body: Data()))])
        #expect(redirect.events == [.error(11, NetworkError.badStatus(code: 302, body: body("x")))])
    }

    @Test func unknownPathAnswers404() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler)
        let res = scheduler.start { network.fetch(url: base.appendingPathComponent("nowhere")).asObservable() }
        #expect(res.events == [.error(201, NetworkError.badStatus(code: 404, body: Data()))])
        #expect(network.requestCount(for: "/nowhere") == 1)
    }

    @Test func emptyBodyAndTooLargeBodyFail() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(
            scheduler: scheduler,
            routes: ["/empty": .json(""), "/big": .data(Data(repeating: 7, count: 11)), "/fits": .data(Data(repeating: 7, count: 10))],
            configuration: NetworkConfiguration(maximumBodySize: 10)
        )
        let empty = scheduler.createObserver(Data.self)
        let big = scheduler.createObserver(Data.self)
        let fits = scheduler.createObserver(Data.self)
        scheduler.scheduleAt(100) {
            _ = network.fetch(url: base.appendingPathComponent("empty")).asObservable().subscribe(empty)
            _ = network.fetch(url: base.appendingPathComponent("big")).asObservable().subscribe(big)
            _ = network.fetch(url: base.appendingPathComponent("fits")).asObservable().subscribe(fits)
        }
        scheduler.start()
        #expect(empty.events == [.error(101, NetworkError.emptyBody)])
        #expect(big.events == [.error(101, NetworkError.tooLarge(limit: 10))])
        #expect(fits.events == [.next(101, Data(repeating: 7, count: 10)), .completed(101)])
    }

    @Test func emptyBodyAcceptedWhenConfigured() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/nothing": .status(204)],
                                     configuration: NetworkConfiguration(allowsEmptyBody: true))
        let res = scheduler.start { network.fetch(url: base.appendingPathComponent("nothing"), method: .delete).asObservable() }
        #expect(res.events == [.next(201, Data()), .completed(201)])
        #expect(network.requests.map(\.httpMethod) == ["DELETE"])
    }

    @Test func failureRoutesFailAfterTheirDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/slow": .failure(.timedOut, delay: .seconds(60))])
        let res = scheduler.start { network.fetch(url: base.appendingPathComponent("slow")).asObservable() }
        #expect(res.events == [.error(260, NetworkError.timedOut)])
    }

    @Test func offlineFailsAtOnceAndOnlineAgainAnswers() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/pizzas": .json("[2]", delay: .seconds(10))])
        network.isOffline = true
        let offline = scheduler.createObserver(Data.self)
        let online = scheduler.createObserver(Data.self)
        scheduler.scheduleAt(100) { _ = network.fetch(url: base.appendingPathComponent("pizzas")).asObservable().subscribe(offline) }
        scheduler.scheduleAt(200) { network.isOffline = false }
        scheduler.scheduleAt(300) { _ = network.fetch(url: base.appendingPathComponent("pizzas")).asObservable().subscribe(online) }
        scheduler.start()
        #expect(offline.events == [.error(101, FixtureNetwork.offlineError)])
        #expect(online.events == [.next(310, body("[2]")), .completed(310)])
        #expect(network.requestCount(for: "/pizzas") == 2)
    }

    @Test func disposingBeforeTheAnswerCancelsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/pizzas": .json("[]", delay: .seconds(500))])
        let res = scheduler.start(disposed: 400) { network.fetch(url: base.appendingPathComponent("pizzas")).asObservable() }
        #expect(res.events.isEmpty)
        #expect(network.requestCount(for: "/pizzas") == 1)
        #expect(network.cancelledRequestCount == 1)
    }

    @Test func everySubscriptionSendsItsOwnRequestUnlessShared() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/pizzas": .json("[3]", delay: .seconds(10))])
        let url = base.appendingPathComponent("pizzas")
        let plain = network.fetch(url: url).asObservable()
        let shared = network.fetch(url: url).asObservable().share(replay: 1)
        let a = scheduler.createObserver(Data.self)
        let b = scheduler.createObserver(Data.self)
        let c = scheduler.createObserver(Data.self)
        let d = scheduler.createObserver(Data.self)
        scheduler.scheduleAt(100) {
            _ = plain.subscribe(a)
            _ = plain.subscribe(b)
        }
        scheduler.scheduleAt(200) {
            _ = shared.subscribe(c)
            _ = shared.subscribe(d)
        }
        scheduler.start()
        #expect(a.events == [.next(110, body("[3]")), .completed(110)])
        #expect(b.events == a.events)
        #expect(c.events == [.next(210, body("[3]")), .completed(210)])
        #expect(d.events == c.events)
        #expect(network.requestCount(for: "/pizzas") == 3)
    }

    @Test func routesCanChangeAndCountsReset() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler)
        network.setRoute(.json("a"), for: "/x")
        #expect(network.route(for: "/x") == .json("a"))
        let first = scheduler.createObserver(Data.self)
        let second = scheduler.createObserver(Data.self)
        scheduler.scheduleAt(10) { _ = network.fetch(url: base.appendingPathComponent("x")).asObservable().subscribe(first) }
        scheduler.scheduleAt(20) { network.setRoute(nil, for: "/x") }
        scheduler.scheduleAt(30) { _ = network.fetch(url: base.appendingPathComponent("x")).asObservable().subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(11, body("a")), .completed(11)])
        #expect(second.events == [.error(31, NetworkError.badStatus(code: 404, body: Data()))])
        #expect(network.totalRequestCount == 2)
        network.resetCounts()
        #expect(network.totalRequestCount == 0)
        #expect(network.requestCount(for: "/x") == 0)
    }
}
