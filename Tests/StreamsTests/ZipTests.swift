import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ZipTests {
    @Test func pairsElementsByIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let b = scheduler.createHotObservable([.next(240, 10), .next(250, 20), .completed(400)])
        let res = scheduler.start { Observable.zip(a, b) { $0 + $1 } }
        #expect(res.events == [.next(240, 11), .next(250, 22), .completed(400)])
        #expect(a.subscriptions == [Subscription(200, 300)])
        #expect(b.subscriptions == [Subscription(200, 400)])
    }

    @Test func tupleFormOfMixedTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(230, "x"), .next(240, "y"), .completed(250)])
        let res = scheduler.start { Observable.zip(a, b).map { "\($0.0)\($0.1)" } }
        #expect(res.events == [.next(230, "1x"), .next(240, "2y"), .completed(300)])
    }

    @Test func eightSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = (0 ..< 8).map { scheduler.createHotObservable([.next(210 + $0, $0), .next(300 + $0, 10 * $0), .completed(400)]) }
        let res = scheduler.start {
            Observable.zip(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6], xs[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
        }
        #expect(res.events == [.next(217, 28), .next(307, 280), .completed(400)])
    }

    @Test func neverAndEmptyNeverComplete() {
        // As RxSwift's testZip_NeverEmpty: the fixed-arity zip waits for every source.
        let scheduler = TestScheduler(initialClock: 0)
        let n = scheduler.createHotObservable([.next(150, 1)])
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.zip(n, e) { $0 + $1 } }
        #expect(res.events == [])
        #expect(n.subscriptions == [Subscription(200, 1000)])
        #expect(e.subscriptions == [Subscription(200, 210)])
    }

    @Test func leftCompletingFirstWaitsForTheRight() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 2), .completed(220)])
        let b = scheduler.createHotObservable([.next(215, 4), .completed(225)])
        let res = scheduler.start { Observable.zip(a, b) { $0 + $1 } }
        #expect(res.events == [.next(215, 6), .completed(225)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(200, 225)])
    }

    @Test func anErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(215, 2), .completed(230)])
        let b = scheduler.createHotObservable([.error(220, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.zip(a, b) { $0 + $1 } }
        #expect(res.events == [.error(220, testError)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(200, 220)])
    }

    @Test func aThrowingSelectorEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(220, 2), .completed(220)])
        let b = scheduler.createHotObservable([.next(210, 4)])
        let res = scheduler.start { Observable.zip(a, b) { _, _ -> Int in throw testError } }
        #expect(res.events == [.error(220, testError)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalUnsubscribesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let b = scheduler.createHotObservable([.next(220, 3), .next(260, 4)])
        let res = scheduler.start(disposed: 250) { Observable.zip(a, b) { $0 * $1 } }
        #expect(res.events == [.next(220, 3)])
        #expect(a.subscriptions == [Subscription(200, 250)])
        #expect(b.subscriptions == [Subscription(200, 250)])
    }

    @Test func collectionFormSymmetric() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.zip([e0, e1, e2].map { $0.asObservable() }) }
        #expect(res.events == [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(420)])
        #expect(e0.subscriptions == [Subscription(200, 420)])
        #expect(e1.subscriptions == [Subscription(200, 410)])
        #expect(e2.subscriptions == [Subscription(200, 400)])
    }

    @Test func collectionFormCompletesWhenAnElementCanNeverBeMatched() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.next(230, 2), .next(240, 3), .completed(500)])
        let res = scheduler.start { Observable.zip([a, b]) { $0.reduce(0, +) } }
        #expect(res.events == [.next(230, 3), .completed(240)])
        #expect(b.subscriptions == [Subscription(200, 240)])
    }

    @Test func emptyCollectionCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.zip([Observable<Int>]()) }
        #expect(res.events == [.completed(200)])
    }

    @Test func operatorFunctionsWorkAsSelectors() {
        var sums: [Int] = []
        var pairs: [String] = []
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let s1 = Observable.zip(a, b, resultSelector: +).subscribe(onNext: { sums.append($0) })
        let s2 = Observable.combineLatest(a, b).subscribe(onNext: { pairs.append("\($0.0),\($0.1)") })
        a.onNext(1)
        b.onNext(2)
        a.onNext(3)
        b.onNext(4)
        #expect(sums == [3, 7])
        #expect(pairs == ["1,2", "3,2", "3,4"])
        s1.dispose()
        s2.dispose()
    }

    @Test func synchronousSourcesZip() {
        var received: [String] = []
        var completed = false
        let subscription = Observable.zip(Observable.of(1, 2, 3), Observable.of("a", "b"))
            .subscribe(onNext: { received.append("\($0.0)\($0.1)") }, onCompleted: { completed = true })
        #expect(received == ["1a", "2b"])
        #expect(completed)
        subscription.dispose()
    }

    @Test func sourcesOnSeveralThreadsAreSerialised() async {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let recorder = CombiningOverlapRecorder()
        let subscription = Observable.zip(a, b) { $0 * 10_000 + $1 }
            .subscribe(onNext: { recorder.enter($0) }, onCompleted: { recorder.complete() })
        let count = 2_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for i in 1 ... count { a.onNext(i) }; a.onCompleted() }
            group.addTask { for i in 1 ... count { b.onNext(i) }; b.onCompleted() }
        }
        #expect(recorder.overlapped == false)
        #expect(recorder.values == (1 ... count).map { $0 * 10_000 + $0 })
        #expect(recorder.completed)
        subscription.dispose()
    }
}
