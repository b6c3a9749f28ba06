import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct WithLatestFromTests {
    @Test func combinesWithTheLatestOfTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(150, "z"), .next(220, "a"), .next(240, "b"), .completed(245)])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        #expect(res.events == [.next(230, "2a"), .next(250, "3b"), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 245)])
    }

    @Test func withoutASelectorSendsTheLatestOfTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b")])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        #expect(res.events == [.next(230, "a"), .next(250, "b"), .completed(300)])
        #expect(ys.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorsOfEitherSourceEndEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(205, 10), .error(220, testError)])
        let res = scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }
        #expect(res.events == [.next(210, 11), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(200, 220)])

        let second = TestScheduler(initialClock: 0)
        let firstFails = second.createHotObservable([.next(210, 1), .error(230, TestError.code(1))])
        let other = second.createHotObservable([.next(205, 10)])
        let res2 = second.start { firstFails.withLatestFrom(other) { $0 + $1 } }
        #expect(res2.events == [.next(210, 11), .error(230, TestError.code(1))])
        #expect(other.subscriptions == [Subscription(200, 230)])
    }

    @Test func aThrowingSelectorEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(205, 10)])
        let res = scheduler.start {
            xs.withLatestFrom(ys) { x, y -> Int in
                if x == 2 { throw testError }
                return x + y
            }
        }
        #expect(res.events == [.next(210, 11), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposalUnsubscribesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let ys = scheduler.createHotObservable([.next(205, 10)])
        let res = scheduler.start(disposed: 250) { xs.withLatestFrom(ys) { $0 + $1 } }
        #expect(res.events == [.next(210, 11)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func aSynchronousSecondIsReadyForTheFirst() {
        var received: [String] = []
        let subscription = Observable.of(1, 2)
            .withLatestFrom(BehaviorSubject(value: "x")) { "\($0)\($1)" }
            .subscribe(onNext: { received.append($0) })
        #expect(received == ["1x", "2x"])
        subscription.dispose()
    }
}
