import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ToArrayTests {
    @Test func collectsEveryElementAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.toArray() }
        #expect(res.events == [.next(300, [1, 2, 3]), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func emptySourceSendsAnEmptyArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.toArray() }
        #expect(res.events == [.next(250, []), .completed(250)])
    }

    @Test func errorDropsTheCollectedElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start { xs.toArray() }
        #expect(res.events == [.error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposalBeforeCompletionSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(600)])
        let res = scheduler.start(disposed: 400) { xs.toArray() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }
}
