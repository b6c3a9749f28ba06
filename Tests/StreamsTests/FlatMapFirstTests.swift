import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct FlatMapFirstTests {
    @Test func dropsElementsWhileAnInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)]),
            scheduler.createColdObservable([.next(5, 99), .completed(10)]),
            scheduler.createColdObservable([.next(5, 7), .completed(20)]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .next(260, 2), .completed(300)])
        var selected: [Int] = []
        let res = scheduler.start {
            xs.flatMapFirst { value -> TestableObservable<Int> in
                selected.append(value)
                return inners[value]
            }
        }
        #expect(res.events == [.next(220, 1), .next(240, 2), .next(265, 7), .completed(300)])
        #expect(selected == [0, 2])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(inners[0].subscriptions == [Subscription(210, 250)])
        #expect(inners[1].subscriptions == [])
        #expect(inners[2].subscriptions == [Subscription(260, 280)])
    }

    @Test func completesWhenTheRunningInnerCompletesAfterTheOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(220)])
        let res = scheduler.start { xs.flatMapFirst { _ in inner } }
        #expect(res.events == [.next(220, 1), .completed(310)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(inner.subscriptions == [Subscription(210, 310)])
    }

    @Test func errorsEndEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(500)])
        let res = scheduler.start { xs.flatMapFirst { _ in inner } }
        #expect(res.events == [.next(220, 1), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])

        let outerFails = TestScheduler(initialClock: 0)
        let longInner = outerFails.createColdObservable([.next(10, 1), .next(100, 2)])
        let ys = outerFails.createHotObservable([.next(210, 0), .error(250, TestError.code(1))])
        let res2 = outerFails.start { ys.flatMapFirst { _ in longInner } }
        #expect(res2.events == [.next(220, 1), .error(250, TestError.code(1))])
        #expect(longInner.subscriptions == [Subscription(210, 250)])
    }

    @Test func aThrowingSelectorEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(500)])
        let res = scheduler.start { xs.flatMapFirst { _ -> Observable<Int> in throw testError } }
        #expect(res.events == [.error(210, testError)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func disposalUnsubscribesTheRunningInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(50, 2)])
        let xs = scheduler.createHotObservable([.next(210, 0)])
        let res = scheduler.start(disposed: 240) { xs.flatMapFirst { _ in inner } }
        #expect(res.events == [.next(220, 1)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(inner.subscriptions == [Subscription(210, 240)])
    }

    @Test func synchronousInnersLeaveRoomForTheNextElement() {
        var received: [Int] = []
        var completed = false
        let subscription = Observable.of(1, 2, 3)
            .flatMapFirst { Observable.just($0 * 10) }
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        #expect(received == [10, 20, 30])
        #expect(completed)
        subscription.dispose()
    }
}
