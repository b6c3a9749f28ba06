import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct SwitchLatestTests {
    @Test func forwardsOnlyTheLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(40, 3), .completed(100)])
        let b = scheduler.createColdObservable([.next(5, 10), .next(80, 20), .completed(90)])
        let xs = scheduler.createHotObservable([.next(210, a.asObservable()), .next(240, b.asObservable()), .completed(300)])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.next(220, 1), .next(230, 2), .next(245, 10), .next(320, 20), .completed(330)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(a.subscriptions == [Subscription(210, 240)])
        #expect(b.subscriptions == [Subscription(240, 330)])
    }

    @Test func anInnerErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let xs = scheduler.createHotObservable([.next(210, a.asObservable()), .completed(500)])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.next(220, 1), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func emptyOuterCompletesAndDisposalStopsTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Observable<Int>>>])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.completed(220)])

        let second = TestScheduler(initialClock: 0)
        let inner = second.createColdObservable([.next(10, 1), .next(100, 2)])
        let ys = second.createHotObservable([.next(210, inner.asObservable())])
        let res2 = second.start(disposed: 260) { ys.switchLatest() }
        #expect(res2.events == [.next(220, 1)])
        #expect(inner.subscriptions == [Subscription(210, 260)])
        #expect(ys.subscriptions == [Subscription(200, 260)])
    }
}
