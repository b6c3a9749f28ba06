import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct FlatMapLatestTests {
    @Test func aNewElementDisposesThePreviousInnerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(40, 3), .completed(100)]),
            scheduler.createColdObservable([.next(5, 10), .next(80, 20), .completed(90)]),
        ]
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 0), .next(240, 1), .completed(300)])
        let res = scheduler.start { xs.flatMapLatest { inners[$0] } }
        #expect(res.events == [.next(220, 1), .next(230, 2), .next(245, 10), .next(320, 20), .completed(330)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        // The first inner is disposed when the second element arrives, so its 3 at 250 is never seen.
        #expect(inners[0].subscriptions == [Subscription(210, 240)])
        #expect(inners[1].subscriptions == [Subscription(240, 330)])
    }

    @Test func completesWhenTheOuterCompletesAfterTheLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(300)])
        let res = scheduler.start { xs.flatMapLatest { _ in inner } }
        #expect(res.events == [.next(220, 1), .completed(300)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func anErrorOfTheLatestInnerEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 1), .error(50, TestError.code(0))]),
            scheduler.createColdObservable([.next(5, 10), .error(20, testError)]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(500)])
        let res = scheduler.start { xs.flatMapLatest { inners[$0] } }
        // The first inner's error at 260 is never seen: it was replaced at 230.
        #expect(res.events == [.next(220, 1), .next(235, 10), .error(250, testError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(inners[0].subscriptions == [Subscription(210, 230)])
        #expect(inners[1].subscriptions == [Subscription(230, 250)])
    }

    @Test func anOuterErrorDisposesTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let xs = scheduler.createHotObservable([.next(210, 0), .error(250, testError)])
        let res = scheduler.start { xs.flatMapLatest { _ in inner } }
        #expect(res.events == [.next(220, 1), .error(250, testError)])
        #expect(inner.subscriptions == [Subscription(210, 250)])
    }

    @Test func aThrowingSelectorEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(500)])
        let res = scheduler.start {
            xs.flatMapLatest { value -> TestableObservable<Int> in
                if value == 1 { throw testError }
                return inner
            }
        }
        #expect(res.events == [.next(220, 1), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func disposalUnsubscribesOuterAndInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let xs = scheduler.createHotObservable([.next(210, 0)])
        let res = scheduler.start(disposed: 250) { xs.flatMapLatest { _ in inner } }
        #expect(res.events == [.next(220, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(inner.subscriptions == [Subscription(210, 250)])
    }

    @Test func synchronousInnersCompleteWithTheOuter() {
        var received: [Int] = []
        var completed = false
        // Inners that emit during their subscription run to completion before the next element.
        let subscription = Observable.of(1, 2, 3)
            .flatMapLatest { Observable.of($0, $0 * 10, scheduler: ImmediateScheduler.instance) }
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        #expect(received == [1, 10, 2, 20, 3, 30])
        #expect(completed)
        subscription.dispose()

        // Trampolined inners only start after the next outer element has replaced them, as in
        // RxSwift: only the last one gets past its first element.
        var trampolined: [Int] = []
        let second = Observable.of(1, 2, 3)
            .flatMapLatest { Observable.of($0, $0 * 10) }
            .subscribe(onNext: { trampolined.append($0) })
        #expect(trampolined == [1, 2, 3, 30])
        second.dispose()
    }

    @Test func innersOnOtherThreadsDeliverOneAtATime() async {
        let outer = PublishSubject<Int>()
        let inners = (0 ..< 4).map { _ in PublishSubject<Int>() }
        let recorder = CombiningOverlapRecorder()
        let subscription = outer.flatMapLatest { inners[$0] }
            .subscribe(onNext: { recorder.enter($0) })
        outer.onNext(0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for i in 0 ..< 2_000 { inners[0].onNext(i) } }
            group.addTask { for i in 1 ..< 4 { outer.onNext(i) } }
        }
        inners[3].onNext(-1)
        #expect(recorder.overlapped == false)
        #expect(recorder.values.last == -1)
        subscription.dispose()
    }
}
