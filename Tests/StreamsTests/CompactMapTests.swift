import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct CompactMapTests {
    @Test func dropsNilResults() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, "0"), .next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(300)])
        let res = scheduler.start { xs.compactMap { Int($0) } }
        #expect(res.events == [.next(210, 1), .next(230, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func throwingTransformEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.compactMap { value -> Int? in
            if value == 2 { throw testError }
            return value
        } }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func passesErrorsAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.compactMap { $0 } }
        #expect(res.events == [.next(210, 1), .error(250, testError)])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.next(210, 1), .next(500, 2), .completed(600)])
        let cut = later.start(disposed: 400) { ys.compactMap { $0 } }
        #expect(cut.events == [.next(210, 1)])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }
}
