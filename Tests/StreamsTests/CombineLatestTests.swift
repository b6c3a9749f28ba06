import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct CombineLatestTests {
    @Test func combinesWithASelectorOnceEverySourceHasAValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(230, 3), .completed(300)])
        let b = scheduler.createHotObservable([.next(150, 10), .next(220, 20), .next(240, 30), .completed(400)])
        let res = scheduler.start { Observable.combineLatest(a, b) { $0 + $1 } }
        #expect(res.events == [.next(220, 22), .next(230, 23), .next(240, 33), .completed(400)])
        #expect(a.subscriptions == [Subscription(200, 300)])
        #expect(b.subscriptions == [Subscription(200, 400)])
    }

    @Test func tupleFormOfMixedTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, "x"), .completed(250)])
        let res = scheduler.start { Observable.combineLatest(a, b).map { number, letter in "\(number)\(letter)" } }
        #expect(res.events == [.next(220, "1x"), .next(230, "2x"), .completed(300)])
    }

    @Test func eightSourcesOfMixedTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let ints = (1 ... 4).map { scheduler.createHotObservable([.next(200 + $0 * 10, $0), .completed(500)]) }
        let strings = ["a", "b", "c"].enumerated().map { scheduler.createHotObservable([.next(260 + $0.offset * 10, $0.element), .completed(500)]) }
        let flag = scheduler.createHotObservable([.next(300, true), .next(310, false), .completed(320)])
        let res = scheduler.start {
            Observable.combineLatest(ints[0], ints[1], ints[2], ints[3], strings[0], strings[1], strings[2], flag)
                .map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)\($0.5)\($0.6)\($0.7)" }
        }
        #expect(res.events == [.next(300, "1234abctrue"), .next(310, "1234abcfalse"), .completed(500)])
    }

    @Test func threeSourcesWithSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let b = scheduler.createHotObservable([.next(220, 2.5), .completed(400)])
        let c = scheduler.createHotObservable([.next(230, "c"), .next(240, "d"), .completed(400)])
        let res = scheduler.start { Observable.combineLatest(a, b, c) { "\($0)|\($1)|\($2)" } }
        #expect(res.events == [.next(230, "1|2.5|c"), .next(240, "1|2.5|d"), .completed(400)])
    }

    @Test func anErrorEndsEverythingAndDisposesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(300)])
        let res = scheduler.start { Observable.combineLatest(a, b) { $0 * $1 } }
        #expect(res.events == [.next(220, 2), .error(230, testError)])
        #expect(a.subscriptions == [Subscription(200, 230)])
        #expect(b.subscriptions == [Subscription(200, 230)])
    }

    @Test func aThrowingSelectorEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 10), .completed(300)])
        let res = scheduler.start {
            Observable.combineLatest(a, b) { x, y -> Int in
                if x == 2 { throw TestError.code(x) }
                return x + y
            }
        }
        #expect(res.events == [.next(220, 11), .error(230, TestError.code(2))])
        #expect(a.subscriptions == [Subscription(200, 230)])
        #expect(b.subscriptions == [Subscription(200, 230)])
    }

    @Test func completesEarlyWhenAnEmptySourceCanNeverBeFilled() {
        // b completes without a value; a's next element then can never be combined.
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(500)])
        let b = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.combineLatest(a, b) { $0 + $1 } }
        #expect(res.events == [.completed(230)])
        #expect(a.subscriptions == [Subscription(200, 230)])
        #expect(b.subscriptions == [Subscription(200, 220)])
    }

    @Test func waitsForEverySourceToComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.next(230, 2), .next(240, 3)])
        let res = scheduler.start(disposed: 600) { Observable.combineLatest(a, b) { $0 + $1 } }
        #expect(res.events == [.next(230, 3), .next(240, 4)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(200, 600)])
    }

    @Test func collectionFormMakesArraysInSourceOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(250, 4), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 2), .completed(260)])
        let c = scheduler.createHotObservable([.next(230, 3), .next(240, 5), .completed(400)])
        let res = scheduler.start { Observable.combineLatest([a, b, c].map { $0.asObservable() }) }
        #expect(res.events == [.next(230, [1, 2, 3]), .next(240, [1, 2, 5]), .next(250, [4, 2, 5]), .completed(400)])
        #expect(b.subscriptions == [Subscription(200, 260)])
    }

    @Test func collectionFormWithSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 3), .error(240, testError)])
        let res = scheduler.start { Observable.combineLatest([a, b]) { $0.reduce(0, +) } }
        #expect(res.events == [.next(220, 4), .next(230, 5), .error(240, testError)])
        #expect(a.subscriptions == [Subscription(200, 240)])
    }

    @Test func emptyCollectionSendsAnEmptyArrayAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) }
        #expect(res.events == [.next(200, []), .completed(200)])
        let summed = TestScheduler(initialClock: 0).start(created: 300, subscribed: 400, disposed: 500) {
            Observable.combineLatest([Observable<Int>]()) { $0.count + 7 }
        }
        #expect(summed.events == [.next(400, 7), .completed(400)])
    }

    @Test func disposalUnsubscribesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let b = scheduler.createHotObservable([.next(220, 3), .next(260, 4)])
        let res = scheduler.start(disposed: 250) { Observable.combineLatest(a, b) { $0 + $1 } }
        #expect(res.events == [.next(220, 4), .next(230, 5)])
        #expect(a.subscriptions == [Subscription(200, 250)])
        #expect(b.subscriptions == [Subscription(200, 250)])
    }

    @Test func aSelectorThatFeedsASourceDoesNotDeadlock() {
        let a = PublishSubject<Int>()
        let b = BehaviorSubject(value: 0)
        var received: [Int] = []
        let subscription = Observable.combineLatest(a, b) { x, y -> Int in
            if y == 0 { b.onNext(x * 10) }
            return x + y
        }
        .subscribe(onNext: { received.append($0) })
        a.onNext(1)
        a.onNext(2)
        #expect(received == [1, 11, 12])
        subscription.dispose()
    }

    @Test func sourcesOnSeveralThreadsAreSerialised() async {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let recorder = CombiningOverlapRecorder()
        let subscription = Observable.combineLatest(a, b) { $0 + $1 }
            .subscribe(onNext: { recorder.enter($0) }, onCompleted: { recorder.complete() })
        a.onNext(0)
        b.onNext(0)
        let perThread = 2_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for i in 1 ... perThread { a.onNext(i) }; a.onCompleted() }
            group.addTask { for i in 1 ... perThread { b.onNext(i) }; b.onCompleted() }
        }
        #expect(recorder.overlapped == false)
        #expect(recorder.values.last == 2 * perThread)
        #expect(recorder.values.count == 1 + 2 * perThread)
        #expect(recorder.completed)
        subscription.dispose()
    }
}

/// Records elements from several threads and notices overlapping calls.
final class CombiningOverlapRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = false
    private(set) var overlapped = false
    private var storage: [Int] = []
    private var didComplete = false

    func enter(_ value: Int) {
        lock.lock()
        if inside { overlapped = true }
        inside = true
        storage.append(value)
        lock.unlock()
        for _ in 0 ..< 50 { _ = value &* 31 }
        lock.lock()
        inside = false
        lock.unlock()
    }

    func complete() { lock.withLock { didComplete = true } }
    var values: [Int] { lock.withLock { storage } }
    var completed: Bool { lock.withLock { didComplete } }
}
