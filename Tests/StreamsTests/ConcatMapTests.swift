import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ConcatMapTests {
    @Test func subscribesEachInnerAfterThePreviousCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)]),
            scheduler.createColdObservable([.next(5, 10), .next(15, 20), .completed(100)]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .completed(230)])
        let res = scheduler.start { xs.concatMap { inners[$0] } }
        #expect(res.events == [.next(220, 1), .next(240, 2), .next(255, 10), .next(265, 20), .completed(350)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(inners[0].subscriptions == [Subscription(210, 250)])
        #expect(inners[1].subscriptions == [Subscription(250, 350)])
    }

    @Test func anInnerErrorEndsEverythingAndQueuedInnersAreNeverSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 1), .error(20, testError)]),
            scheduler.createColdObservable([.next(5, 10), .completed(10)]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(215, 1), .completed(500)])
        let res = scheduler.start { xs.concatMap { inners[$0] } }
        #expect(res.events == [.next(220, 1), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(inners[1].subscriptions == [])
    }

    @Test func aThrowingSelectorEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(500)])
        let res = scheduler.start {
            xs.concatMap { value -> TestableObservable<Int> in
                if value == 1 { throw testError }
                return inner
            }
        }
        #expect(res.events == [.next(220, 1), .error(230, testError)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func disposalUnsubscribesTheRunningInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(50, 2), .completed(60)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 0)])
        let res = scheduler.start(disposed: 240) { xs.concatMap { _ in inner } }
        #expect(res.events == [.next(220, 1)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(inner.subscriptions == [Subscription(210, 240)])
    }
}
