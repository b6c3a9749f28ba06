import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ThrottleTests {
    private func source(_ scheduler: TestScheduler, _ tail: [Recorded<Event<Int>>]) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5),
        ] + tail)
    }

    // latest: false

    @Test func notLatestCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(410, 6), .next(450, 7), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func notLatestNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events.isEmpty)
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func notLatestEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func notLatestError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.error(410, testError), .next(450, 7), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .error(410, testError)])
        #expect(xs.subscriptions == [Subscription(200, 410)])
    }

    @Test func notLatestNoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(410, 6), .next(450, 7)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    // latest: true (the default)

    @Test func latestCompletedWaitsForTheLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(410, 6), .next(450, 7), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func latestCompletedAfterDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(410, 6), .next(450, 7), .completed(900)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(900)])
        #expect(xs.subscriptions == [Subscription(200, 900)])
    }

    @Test func latestEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func latestError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.error(410, testError), .next(450, 7), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .error(410, testError)])
        #expect(xs.subscriptions == [Subscription(200, 410)])
    }

    @Test func latestNoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(410, 6), .next(450, 7)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func latestEmitsTheNewestOfTheWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4)])
        let res = scheduler.start { xs.throttle(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(260, 4)])
    }

    @Test func disposalCancelsTheWindowTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start(disposed: 250) { xs.throttle(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
