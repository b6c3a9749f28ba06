import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct FirstTests {
    @Test func sendsTheFirstElementAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.first() }
        #expect(res.events == [.next(210, Optional(1)), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func emptySourceSendsNil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.first() }
        #expect(res.events == [.next(250, nil), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func passesTheErrorAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(230, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.first() }
        #expect(res.events == [.error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.next(500, 1), .completed(600)])
        let cut = later.start(disposed: 400) { ys.first() }
        #expect(cut.events == [])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }
}
