import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ConcatTests {
    @Test func secondIsSubscribedWhenTheFirstCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(230)])
        let b = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { a.concat(b) }
        #expect(res.events == [.next(210, 1), .next(240, 2), .completed(250)])
        #expect(a.subscriptions == [Subscription(200, 230)])
        #expect(b.subscriptions == [Subscription(230, 250)])
    }

    @Test func variadicStopsAtTheFirstError() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(5, 2), .error(10, testError)])
        let c = scheduler.createColdObservable([.next(5, 3), .completed(10)])
        let res = scheduler.start { Observable.concat(a.asObservable(), b.asObservable(), c.asObservable()) }
        #expect(res.events == [.next(210, 1), .next(225, 2), .error(230, testError)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(220, 230)])
        #expect(c.subscriptions == [])
    }

    @Test func arrayAndSequenceForms() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let res = scheduler.start { Observable.concat([a.asObservable(), b.asObservable()]) }
        #expect(res.events == [.next(210, 1), .next(225, 2), .completed(230)])

        let lazyScheduler = TestScheduler(initialClock: 0)
        let c = lazyScheduler.createColdObservable([.next(10, 7), .completed(20)])
        var made = 0
        let sources = AnySequence { () -> AnyIterator<Observable<Int>> in
            AnyIterator {
                guard made < 3 else { return nil }
                made += 1
                return c.asObservable()
            }
        }
        let res2 = lazyScheduler.start { Observable.concat(sources) }
        #expect(res2.events == [.next(210, 7), .next(230, 7), .next(250, 7), .completed(260)])
        #expect(c.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    @Test func collectionForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { Observable.concat(ArraySlice([a.asObservable(), a.asObservable()])) }
        #expect(res.events == [.next(210, 1), .next(230, 1), .completed(240)])
    }

    @Test func emptyCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.concat([Observable<Int>]()) }
        #expect(res.events == [.completed(200)])
    }

    @Test func disposalUnsubscribesTheCurrentSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(10, 2), .next(100, 3), .completed(200)])
        let res = scheduler.start(disposed: 250) { Observable.concat(a.asObservable(), b.asObservable()) }
        #expect(res.events == [.next(210, 1), .next(230, 2)])
        #expect(b.subscriptions == [Subscription(220, 250)])
    }

    @Test func concatOfObservablesWaitsForEachInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)])
        let b = scheduler.createColdObservable([.next(5, 3), .completed(10)])
        let xs = scheduler.createHotObservable([.next(210, a.asObservable()), .next(220, b.asObservable()), .completed(230)])
        let res = scheduler.start { xs.concat() }
        #expect(res.events == [.next(220, 1), .next(240, 2), .next(255, 3), .completed(260)])
        #expect(b.subscriptions == [Subscription(250, 260)])
    }

    @Test func tenThousandSynchronousSourcesDoNotOverflowTheStack() {
        let count = 10_000
        var sum = 0
        var received = 0
        var completed = false
        let subscription = Observable.concat((0 ..< count).map { Observable.just($0) })
            .subscribe(onNext: { sum += $0; received += 1 }, onCompleted: { completed = true })
        #expect(received == count)
        #expect(sum == (0 ..< count).reduce(0, +))
        #expect(completed)
        subscription.dispose()

        // The same through the lazy `Sequence` form and trampolined sources.
        var lazyReceived = 0
        let lazySources = AnySequence((0 ..< count).lazy.map { Observable.of($0) })
        let lazySubscription = Observable.concat(lazySources).subscribe(onNext: { _ in lazyReceived += 1 })
        #expect(lazyReceived == count)
        lazySubscription.dispose()
    }

    @Test func sourcesCompletingOnOtherThreadsStayInOrder() {
        let queue = DispatchQueue(label: "concat-tests", attributes: .concurrent)
        let sources = (0 ..< 50).map { index in
            Observable<Int>.create { observer in
                queue.async {
                    observer.onNext(index * 2)
                    observer.onNext(index * 2 + 1)
                    observer.onCompleted()
                }
                return Disposables.create()
            }
        }
        let result = ConcatCollectedResult()
        let subscription = Observable.concat(sources)
            .subscribe(onNext: { result.append($0) }, onCompleted: { result.finish() })
        #expect(result.waitForCompletion())
        #expect(result.values == Array(0 ..< 100))
        subscription.dispose()
    }

    @Test func tenThousandSynchronousSourcesOnASmallStackThread() {
        // A thread with a 256 KiB stack would overflow quickly if each source recursed.
        let done = ConcatThreadResult()
        let thread = Thread {
            var received = 0
            _ = Observable.concat((0 ..< 10_000).map { Observable.just($0) })
                .subscribe(onNext: { _ in received += 1 })
            done.finish(received)
        }
        thread.stackSize = 256 * 1024
        thread.start()
        #expect(done.wait() == 10_000)
    }
}

/// Hands one value from a thread back to the test, waiting with a generous timeout.
final class ConcatThreadResult: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private var value: Int?

    func finish(_ value: Int) {
        self.value = value
        semaphore.signal()
    }

    func wait() -> Int? {
        guard semaphore.wait(timeout: .now() + 30) == .success else { return nil }
        return value
    }
}

/// Collects elements delivered on other threads and waits, with a generous timeout, for completion.
final class ConcatCollectedResult: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var storage: [Int] = []

    func append(_ value: Int) { lock.withLock { storage.append(value) } }
    func finish() { done.signal() }
    func waitForCompletion() -> Bool { done.wait(timeout: .now() + 30) == .success }
    var values: [Int] { lock.withLock { storage } }
}
