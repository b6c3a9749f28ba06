import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct MergeTests {
    @Test func mergesStaticSourcesAndCompletesWhenAllComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(250)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(240, 4), .completed(300)])
        let res = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        #expect(a.subscriptions == [Subscription(200, 250)])
        #expect(b.subscriptions == [Subscription(200, 300)])
    }

    @Test func anErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(240, 4), .completed(300)])
        let res = scheduler.start { Observable.merge([a.asObservable(), b.asObservable()]) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .error(230, testError)])
        #expect(b.subscriptions == [Subscription(200, 230)])
    }

    @Test func mergeOfObservablesWaitsForOuterAndInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let inner2 = scheduler.createColdObservable([.next(10, 2), .completed(50)])
        let outer = scheduler.createHotObservable([
            .next(210, inner1.asObservable()), .next(220, inner2.asObservable()), .completed(230),
        ])
        let res = scheduler.start { outer.merge() }
        #expect(res.events == [.next(220, 1), .next(230, 2), .completed(270)])
        #expect(inner1.subscriptions == [Subscription(210, 230)])
        #expect(inner2.subscriptions == [Subscription(220, 270)])
    }

    @Test func maxConcurrentQueuesInnerSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let inner2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let outer = scheduler.createHotObservable([
            .next(210, inner1.asObservable()), .next(215, inner2.asObservable()), .completed(300),
        ])
        let res = scheduler.start { outer.merge(maxConcurrent: 1) }
        #expect(res.events == [.next(220, 1), .next(240, 2), .completed(300)])
        #expect(inner2.subscriptions == [Subscription(230, 250)])
    }

    @Test func theDesignChainSharesAndDropsRepeats() {
        let local = PublishSubject<[Int]>()
        let network = PublishSubject<[Int]>()
        var subscribeCount = 0
        let counted = Observable<[Int]>.deferred {
            subscribeCount += 1
            return network.asObservable()
        }
        let shared = Observable.of(counted, local.asObservable())
            .merge()
            .filter { !$0.isEmpty }
            .distinctUntilChanged()
            .share(replay: 1)
        var first: [[Int]] = []
        var second: [[Int]] = []
        let s1 = shared.subscribe(onNext: { first.append($0) })
        local.onNext([1, 2])
        let s2 = shared.subscribe(onNext: { second.append($0) })
        network.onNext([1, 2])
        network.onNext([])
        network.onNext([1, 2, 3])
        #expect(first == [[1, 2], [1, 2, 3]])
        #expect(second == [[1, 2], [1, 2, 3]])
        #expect(subscribeCount == 1)
        s1.dispose()
        s2.dispose()
    }
}
