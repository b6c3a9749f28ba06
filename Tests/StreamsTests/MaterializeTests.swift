import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct MaterializeTests {
    @Test func materializeTurnsEventsIntoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [.next(210, .next(1)), .next(220, .next(2)), .next(250, .completed), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func materializeTurnsTheErrorIntoAnElementAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [.next(210, .next(1)), .next(250, .error(testError)), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func materializeDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(600)])
        let res = scheduler.start(disposed: 400) { xs.materialize() }
        #expect(res.events == [.next(210, .next(1))])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test func dematerializeReplaysTheDescribedEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event<Int>.next(1)), .next(220, .error(testError)), .next(230, .next(3)), .completed(300),
        ])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, Event<Int>.next(1)), .next(220, .completed), .next(230, .next(3))])
        let completed = other.start { ys.dematerialize() }
        #expect(completed.events == [.next(210, 1), .completed(220)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test func dematerializePassesTheSourcesOwnEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event<Int>.next(1)), .completed(250)])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.next(210, 1), .completed(250)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, Event<Int>.next(1)), .error(250, TestError.code(1))])
        let failed = other.start { ys.dematerialize() }
        #expect(failed.events == [.next(210, 1), .error(250, TestError.code(1))])

        let later = TestScheduler(initialClock: 0)
        let zs = later.createHotObservable([.next(210, Event<Int>.next(1)), .next(500, .next(2))])
        let cut = later.start(disposed: 400) { zs.dematerialize() }
        #expect(cut.events == [.next(210, 1)])
        #expect(zs.subscriptions == [Subscription(200, 400)])
    }

    @Test func roundTripIsTheIdentity() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let res = scheduler.start { xs.materialize().dematerialize() }
        #expect(res.events == [.next(210, 1), .next(220, 2), .error(230, testError)])
    }
}
