import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct TimeoutTests {
    @Test func passesThroughWhenElementsComeInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(230, 3), .next(260, 4), .next(300, 5), .next(350, 6), .completed(400),
        ])
        let res = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(230, 3), .next(260, 4), .next(300, 5), .next(350, 6), .completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test func eachElementRestartsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .next(340, 2), .next(430, 3), .completed(520)])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(250, 1), .next(340, 2), .next(430, 3), .completed(520)])
    }

    @Test func failsWithTimeoutError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(400, 3)])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(240, 2), .error(340, StreamsError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 340)])
    }

    @Test func firstElementIsTimedFromSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(310, 1)])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.error(300, RxError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func switchesToTheOtherSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(130, 2), .next(310, 3), .next(400, 4), .completed(500),
        ])
        let ys = scheduler.createColdObservable([.next(50, -1), .next(200, -2), .next(310, -3), .completed(320)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        #expect(res.events == [.next(350, -1), .next(500, -2), .next(610, -3), .completed(620)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(300, 620)])
    }

    @Test func errorBeforeTheTimeoutNeverSwitches() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let ys = scheduler.createColdObservable([.next(10, -1)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .error(250, testError)])
        #expect(ys.subscriptions.isEmpty)
    }
}
