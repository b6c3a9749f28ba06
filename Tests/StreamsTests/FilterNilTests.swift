import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct FilterNilTests {
    @Test func filterNilDropsNilsAndUnwraps() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Optional(1)), .next(220, nil), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.filterNil() }
        #expect(res.events == [.next(210, 1), .next(230, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func unwrapDropsNilsAndUnwraps() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, nil), .next(220, Optional("a")), .completed(300)])
        let res = scheduler.start { xs.unwrap() }
        #expect(res.events == [.next(220, "a"), .completed(300)])
    }

    @Test func errorsAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Optional(1)), .error(250, testError)])
        let res = scheduler.start { xs.filterNil() }
        #expect(res.events == [.next(210, 1), .error(250, testError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.next(210, Optional(1)), .next(500, 2)])
        let cut = later.start(disposed: 400) { ys.unwrap() }
        #expect(cut.events == [.next(210, 1)])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }
}
