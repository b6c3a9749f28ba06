import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ElementAtTests {
    @Test func sendsTheElementAtTheIndexAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, "z"), .next(210, "a"), .next(220, "b"), .next(230, "c"), .completed(300)])
        let res = scheduler.start { xs.element(at: 1) }
        #expect(res.events == [.next(220, "b"), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func indexZeroIsTheFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .completed(300)])
        let res = scheduler.start { xs.element(at: 0) }
        #expect(res.events == [.next(210, "a"), .completed(210)])
    }

    @Test func completingBeforeTheIndexIsOutOfRange() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .completed(300)])
        let res = scheduler.start { xs.element(at: 3) }
        #expect(res.events == [.error(300, StreamsError.argumentOutOfRange)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func passesTheErrorAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(230, testError)])
        let res = scheduler.start { xs.element(at: 2) }
        #expect(res.events == [.error(230, testError)])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.next(210, "a"), .next(500, "b"), .completed(600)])
        let cut = later.start(disposed: 400) { ys.element(at: 1) }
        #expect(cut.events == [])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }
}
