import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct AmbTests {
    @Test func leftWinsWhenItReactsFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .completed(250)])
        let r = scheduler.createHotObservable([.next(220, 10), .completed(300)])
        let res = scheduler.start { l.amb(r) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .completed(250)])
        #expect(l.subscriptions == [Subscription(200, 250)])
        #expect(r.subscriptions == [Subscription(200, 210)])
    }

    @Test func rightWinsWhenItReactsFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(220, 1), .completed(250)])
        let r = scheduler.createHotObservable([.next(210, 10), .error(300, testError)])
        let res = scheduler.start { l.amb(r) }
        #expect(res.events == [.next(210, 10), .error(300, testError)])
        #expect(l.subscriptions == [Subscription(200, 210)])
        #expect(r.subscriptions == [Subscription(200, 300)])
    }

    @Test func anErrorOrCompletionAlsoWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(220, 1), .completed(250)])
        let r = scheduler.createHotObservable([.error(210, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { l.amb(r) }
        #expect(res.events == [.error(210, testError)])
        #expect(l.subscriptions == [Subscription(200, 210)])

        let second = TestScheduler(initialClock: 0)
        let empty = second.createHotObservable([.completed(215)] as [Recorded<Event<Int>>])
        let busy = second.createHotObservable([.next(220, 1), .completed(250)])
        let res2 = second.start { busy.amb(empty) }
        #expect(res2.events == [.completed(215)])
        #expect(busy.subscriptions == [Subscription(200, 215)])
    }

    @Test func staticFormPicksAmongMany() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(240, 1), .completed(300)])
        let b = scheduler.createHotObservable([.next(230, 2), .next(260, 3), .completed(280)])
        let c = scheduler.createHotObservable([.next(250, 4), .completed(300)])
        let res = scheduler.start { Observable.amb([a, b, c].map { $0.asObservable() } + [Observable.never()]) }
        #expect(res.events == [.next(230, 2), .next(260, 3), .completed(280)])
        #expect(a.subscriptions == [Subscription(200, 230)])
        #expect(b.subscriptions == [Subscription(200, 280)])
        #expect(c.subscriptions == [Subscription(200, 230)])
    }

    @Test func emptySourcesNeverSendAnything() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.amb([Observable<Int>]()) }
        #expect(res.events == [])
    }

    @Test func disposalBeforeAnyEventUnsubscribesAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(420, 1)])
        let r = scheduler.createHotObservable([.next(410, 2)])
        let res = scheduler.start(disposed: 400) { l.amb(r) }
        #expect(res.events == [])
        #expect(l.subscriptions == [Subscription(200, 400)])
        #expect(r.subscriptions == [Subscription(200, 400)])
    }

    @Test func aSynchronousWinnerStillLetsLaterSourcesBeSubscribedAndDisposed() {
        var subscribed = 0
        let later = Observable<Int>.create { _ in
            subscribed += 1
            return Disposables.create()
        }
        var received: [Int] = []
        let subscription = Observable.just(1).amb(later).subscribe(onNext: { received.append($0) })
        #expect(received == [1])
        #expect(subscribed == 1)
        subscription.dispose()
    }

    @Test func sourcesRacingOnTwoThreadsProduceOneWinner() async {
        for _ in 0 ..< 20 {
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            let recorder = CombiningOverlapRecorder()
            let subscription = a.amb(b).subscribe(onNext: { recorder.enter($0) }, onCompleted: { recorder.complete() })
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for i in 1 ... 200 { a.onNext(i) }; a.onCompleted() }
                group.addTask { for i in 1 ... 200 { b.onNext(-i) }; b.onCompleted() }
            }
            let values = recorder.values
            #expect(recorder.overlapped == false)
            #expect(values == Array(1 ... 200) || values == (1 ... 200).map { -$0 })
            #expect(recorder.completed)
            subscription.dispose()
        }
    }
}
