import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct SkipTests {
    // MARK: skip(_:)

    @Test func skipCountDropsTheFirstElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.skip(2) }
        #expect(res.events == [.next(230, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func skipZeroAndSkipMoreThanAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let all = scheduler.start { xs.skip(0) }
        #expect(all.events == [.next(210, 1), .next(220, 2), .completed(300)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let none = other.start { ys.skip(5) }
        #expect(none.events == [.completed(300)])
    }

    @Test func skipCountPassesErrorsAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.skip(1) }
        #expect(res.events == [.error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.next(210, 1), .next(220, 2), .next(500, 3), .completed(600)])
        let cut = later.start(disposed: 400) { ys.skip(1) }
        #expect(cut.events == [.next(220, 2)])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }

    // MARK: skip(while:)

    @Test func skipWhileDropsUntilThePredicateFailsOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 1), .completed(300)])
        var calls = 0
        let res = scheduler.start { xs.skip(while: { value in
            calls += 1
            return value < 3
        }) }
        #expect(res.events == [.next(230, 3), .next(240, 1), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(calls == 3)
    }

    @Test func skipWhileThrowingPredicateAndErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.skip(while: { value -> Bool in
            if value == 2 { throw testError }
            return true
        }) }
        #expect(res.events == [.error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 5), .error(250, TestError.code(1))])
        let failed = other.start { ys.skip(while: { $0 < 3 }) }
        #expect(failed.events == [.next(210, 5), .error(250, TestError.code(1))])
    }

    @Test func skipWhileDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 5), .next(500, 6), .completed(600)])
        let res = scheduler.start(disposed: 400) { xs.skip(while: { $0 < 3 }) }
        #expect(res.events == [.next(210, 5)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    // MARK: skip(until:)

    @Test func skipUntilForwardsAfterTheOtherSendsAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .next(250, 4), .completed(300)])
        let other = scheduler.createHotObservable([.next(230, "go"), .completed(260)])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [.next(240, 3), .next(250, 4), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(other.subscriptions == [Subscription(200, 230)])
    }

    @Test func skipUntilSourceCompletingFirstSendsNothing() {
        // As RxSwift: the source completing before the gate opens ends the subscription silently.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let other = scheduler.createHotObservable([.next(300, "late")])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(200, 250)])
    }

    @Test func skipUntilOtherCompletingEmptyKeepsTheGateShut() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let other = scheduler.createHotObservable([.completed(225)] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [])
        #expect(other.subscriptions == [Subscription(200, 225)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func skipUntilPassesErrorsFromEitherSide() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let other = scheduler.createHotObservable([.error(225, testError)] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [.error(225, testError)])
        #expect(xs.subscriptions == [Subscription(200, 225)])

        let second = TestScheduler(initialClock: 0)
        let ys = second.createHotObservable([.next(210, 1), .error(240, TestError.code(1))])
        let trigger = second.createHotObservable([.next(205, "go")])
        let failed = second.start { ys.skip(until: trigger) }
        #expect(failed.events == [.next(210, 1), .error(240, TestError.code(1))])
        #expect(trigger.subscriptions == [Subscription(200, 205)])
    }

    @Test func skipUntilDisposalDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(500, 3)])
        let other = scheduler.createHotObservable([.next(600, "late")])
        let res = scheduler.start(disposed: 400) { xs.skip(until: other) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(other.subscriptions == [Subscription(200, 400)])
    }
}
