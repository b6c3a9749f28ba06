import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct SingleElementTests {
    @Test func passesTheOnlyElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(300)])
        let res = scheduler.start { xs.single() }
        #expect(res.events == [.next(210, 1), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func emptySourceFailsWithNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.single() }
        #expect(res.events == [.error(250, StreamsError.noElements)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func secondElementFailsWithMoreThanOneElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.single() }
        #expect(res.events == [.next(210, 1), .error(220, StreamsError.moreThanOneElement)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func predicateCountsOnlyMatchingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.single { $0 == 2 } }
        #expect(res.events == [.next(220, 2), .completed(300)])

        let twice = TestScheduler(initialClock: 0)
        let ys = twice.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 4), .completed(300)])
        let tooMany = twice.start { ys.single { $0.isMultiple(of: 2) } }
        #expect(tooMany.events == [.next(220, 2), .error(230, StreamsError.moreThanOneElement)])

        let never = TestScheduler(initialClock: 0)
        let zs = never.createHotObservable([.next(210, 1), .completed(300)])
        let none = never.start { zs.single { $0 > 5 } }
        #expect(none.events == [.error(300, StreamsError.noElements)])
    }

    @Test func throwingPredicateAndSourceErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.single { _ in throw testError } }
        #expect(res.events == [.error(210, testError)])
        #expect(xs.subscriptions == [Subscription(200, 210)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .error(250, TestError.code(4))])
        let failed = other.start { ys.single() }
        #expect(failed.events == [.next(210, 1), .error(250, TestError.code(4))])
    }

    @Test func disposalStopsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2), .completed(600)])
        let res = scheduler.start(disposed: 400) { xs.single() }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }
}
