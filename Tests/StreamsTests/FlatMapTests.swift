import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct FlatMapTests {
    @Test func mergesTheInnerSequencesAndWaitsForAllOfThem() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)]),
            scheduler.createColdObservable([.next(5, 10), .next(15, 20), .completed(100)]),
        ]
        let xs = scheduler.createHotObservable([.next(150, 9), .next(210, 0), .next(220, 1), .completed(300)])
        let res = scheduler.start { xs.flatMap { inners[$0] } }
        #expect(res.events == [.next(220, 1), .next(225, 10), .next(235, 20), .next(240, 2), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(inners[0].subscriptions == [Subscription(210, 250)])
        #expect(inners[1].subscriptions == [Subscription(220, 320)])
    }

    @Test func anInnerErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 1), .next(100, 2)]),
            scheduler.createColdObservable([.next(5, 10), .error(20, testError)]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .completed(500)])
        let res = scheduler.start { xs.flatMap { inners[$0] } }
        #expect(res.events == [.next(220, 1), .next(225, 10), .error(240, testError)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(inners[0].subscriptions == [Subscription(210, 240)])
        #expect(inners[1].subscriptions == [Subscription(220, 240)])
    }

    @Test func aThrowingSelectorEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(50, 2)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(500)])
        let res = scheduler.start {
            xs.flatMap { value -> TestableObservable<Int> in
                if value == 1 { throw testError }
                return inner
            }
        }
        #expect(res.events == [.next(220, 1), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func disposalUnsubscribesOuterAndInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(50, 2)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 0)])
        let res = scheduler.start(disposed: 240) { xs.flatMap { _ in inner } }
        #expect(res.events == [.next(220, 1), .next(230, 1)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(inner.subscriptions == [Subscription(210, 240), Subscription(220, 240)])
    }

    @Test func synchronousInnersKeepTheirOrder() {
        var received: [Int] = []
        let subscription = Observable.of(1, 2, 3)
            .flatMap { Observable.of($0, $0 * 10) }
            .subscribe(onNext: { received.append($0) })
        #expect(received.sorted() == [1, 2, 3, 10, 20, 30])
        #expect(received.count == 6)
        subscription.dispose()
    }
}

/// An inner `just` is delivered without subscribing it; the rules are those of any inner.
@Suite(.resourceCheck) struct ImmediateInnerTests {
    @Test func aJustAtTheConcurrencyLimitWaitsItsTurn() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let xs = scheduler.createHotObservable([
            .next(210, slow.asObservable()), .next(215, Observable.just(9)), .completed(300),
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: 1) }
        #expect(res.events == [.next(220, 1), .next(240, 9), .completed(300)])
    }

    @Test func aJustIsDeliveredAtOnceWithinTheLimitAndTheResultEndsWithTheOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.flatMap { Observable.just($0 * 10) } }
        #expect(res.events == [.next(210, 10), .next(220, 20), .completed(230)])
        let concatenated = TestScheduler(initialClock: 0)
        let ys = concatenated.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let ordered = concatenated.start { ys.concatMap { Observable.just($0) } }
        #expect(ordered.events == [.next(210, 1), .next(220, 2), .completed(230)])
    }

    @Test func aJustReplacesTheRunningInnerOfFlatMapLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let running = scheduler.createColdObservable([.next(10, 1), .next(50, 2), .completed(60)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(240)])
        let res = scheduler.start { xs.flatMapLatest { $0 == 0 ? running.asObservable() : Observable.just(7) } }
        #expect(res.events == [.next(220, 1), .next(230, 7), .completed(240)])
        // The running inner is disposed when the just replaces it.
        #expect(running.subscriptions == [Subscription(210, 230)])
    }
}
