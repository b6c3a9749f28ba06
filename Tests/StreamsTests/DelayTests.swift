import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct DelayTests {
    @Test func shiftsElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .completed(550),
        ])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(350, 2), .next(450, 3), .next(550, 4), .completed(650)])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func errorIsNotDelayedAndDropsWaitingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .error(550, testError),
        ])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(350, 2), .next(450, 3), .error(550, testError)])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func closeElementsKeepTheirSpacing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(235, 3), .completed(240)])
        let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(260, 1), .next(270, 2), .next(285, 3), .completed(290)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func disposalDropsWaitingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .next(400, 3)])
        let res = scheduler.start(disposed: 300) { xs.delay(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(260, 1)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }
}
