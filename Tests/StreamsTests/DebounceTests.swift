import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct DebounceTests {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(200, 2), .next(250, 3), .next(300, 4), .next(350, 5),
            .next(400, 6), .next(450, 7), .next(500, 8), end,
        ])
    }

    @Test func allPass() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(550))
        let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
        #expect(res.events == [
            .next(290, 3), .next(340, 4), .next(390, 5), .next(440, 6), .next(490, 7), .next(540, 8), .completed(550),
        ])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func allPassThenError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(550, testError))
        let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
        #expect(res.events == [
            .next(290, 3), .next(340, 4), .next(390, 5), .next(440, 6), .next(490, 7), .next(540, 8), .error(550, testError),
        ])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func allDropSoCompletionFlushesTheLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(550))
        let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
        #expect(res.events == [.next(550, 8), .completed(550)])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func allDropThenErrorDropsThePending() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(550, testError))
        let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
        #expect(res.events == [.error(550, testError)])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        #expect(res.events.isEmpty)
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func simple() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(240, 3), .next(300, 4), .next(400, 5), .completed(500),
        ])
        let res = scheduler.start { xs.debounce(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(270, 3), .next(330, 4), .next(430, 5), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func disposalCancelsThePendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(290, 2), .completed(500)])
        let res = scheduler.start(disposed: 300) { xs.debounce(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(260, 1)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }
}
