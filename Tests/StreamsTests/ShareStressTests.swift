import Dispatch
import Foundation
import Synchronization
import Streams
import TestSupport
import Testing
import Locking

/// Many subscribers of one `share` at once, against a source that emits and completes inside
/// `subscribe`: every subscriber receives the events of exactly one connection, through its
/// terminal event, or starts a new one — none is left waiting on a connection that is gone.
@Suite(.resourceCheck) struct ShareStressTests {
    /// What one subscriber saw.
    final class Record: @unchecked Sendable {
        let lock = NSLock()
        var elements = 0
        var completed = 0
        var disposed = 0
        var afterCompletion = 0
    }

    static let rounds = 1_000
    static let subscribersPerRound = 8

    /// A way of sharing: how many elements it replays, and its scope.
    struct Sharing: Sendable, CustomTestStringConvertible {
        let replay: Int
        let scope: SubjectLifetimeScope
        var testDescription: String { "replay \(replay), \(scope)" }
    }

    static let sharings = [0, 1, 2].flatMap { replay in [Sharing(replay: replay, scope: .whileConnected), Sharing(replay: replay, scope: .forever)] }

    @Test(arguments: [false, true], sharings)
    func concurrentSubscribersAreNeverLost(asynchronousSource: Bool, sharing: Sharing) {
        let replay = sharing.replay, scope = sharing.scope
        var lost = 0
        var wrong: [String] = []
        for _ in 0..<Self.rounds {
            let shared = Observable<Int>.create { observer in
                if asynchronousSource {
                    let target = UncheckedSendable(observer)
                    DispatchQueue.global().async {
                        target.value.onNext(1)
                        target.value.onCompleted()
                    }
                } else {
                    observer.onNext(1)
                    observer.onCompleted()
                }
                return Disposables.create()
            }.share(replay: replay, scope: scope)
            let records = (0..<Self.subscribersPerRound).map { _ in Record() }
            let subscriptions = Locked<[Disposable]>([])
            let group = DispatchGroup()
            let ready = Atomic<Int>(0)
            for record in records {
                group.enter()
                // A thread each (a global queue may run only as many at once as there are
                // cores, and the barrier below needs all of them running).
                Thread.detachNewThread {
                    // All subscribers start together, so their subscriptions overlap.
                    ready.add(1, ordering: .relaxed)
                    while ready.load(ordering: .relaxed) < Self.subscribersPerRound { sched_yield() }
                    let subscription = shared.subscribe(
                        onNext: { _ in record.lock.withLock { record.elements += 1; if record.completed > 0 { record.afterCompletion += 1 } } },
                        onCompleted: { record.lock.withLock { record.completed += 1 } },
                        onDisposed: { record.lock.withLock { record.disposed += 1 } })
                    subscriptions.withLock { $0.append(subscription) }
                    group.leave()
                }
            }
            #expect(group.wait(timeout: .now() + 30) == .success, "subscribe did not return")
            // Completion happens inside `subscribe` (a synchronous source) or on a global queue
            // soon after: every subscriber must have terminated within a second (`onDisposed`
            // runs just after `onCompleted` returns, so wait for both).
            let deadline = Date().addingTimeInterval(1)
            while records.contains(where: { r in r.lock.withLock { r.completed == 0 || r.disposed == 0 } }), Date() < deadline { usleep(100) }
            for record in records {
                record.lock.withLock {
                    if record.completed == 0 { lost += 1 }
                    if record.completed > 1 || record.afterCompletion > 0 || record.elements > 1 || record.disposed != (record.completed > 0 ? 1 : 0) {
                        wrong.append("elements \(record.elements), completed \(record.completed), disposed \(record.disposed)")
                    }
                }
            }
            subscriptions.withLock { $0.forEach { $0.dispose() } }
        }
        #expect(lost == 0, "\(lost) of \(Self.rounds * Self.subscribersPerRound) subscribers received nothing (replay \(replay), \(scope))")
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// What one churning subscriber saw.
    final class ChurnRecord: @unchecked Sendable {
        /// Set during each call of the observer: finding it set means two calls overlapped.
        let inside = Atomic<Bool>(false)
        let received = Atomic<Int>(0)
        let lock = NSLock()
        var last: Int?
        var problems: [String] = []
    }

    /// Churn on the dedicated `share(replay: 0 | 1)`: a source sends consecutive numbers
    /// without pause on its own thread while 8 threads each subscribe, wait for 3 elements and
    /// leave, 1,000 times (every other time from inside the third element, with `take(3)`), so
    /// observers join, catch up and leave during deliveries, and connections end and start.
    /// Each subscriber must receive consecutive numbers (its replay, then every later element:
    /// nothing twice, nothing skipped), one call at a time; at the end the source has no
    /// observer left.
    @Test(arguments: [0, 1]) func churningSubscribersReceiveConsecutiveElementsOneCallAtATime(replay: Int) {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: replay)
        let stop = Atomic<Bool>(false)
        let pumped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var value = 0
            while !stop.load(ordering: .relaxed) {
                subject.onNext(value)
                value += 1
                if value.isMultiple(of: 64) { sched_yield() }
            }
            pumped.signal()
        }
        let problems = Locked<[String]>([])
        let group = DispatchGroup()
        for thread in 0..<Self.subscribersPerRound {
            group.enter()
            Thread.detachNewThread {
                for round in 0..<Self.rounds {
                    let record = ChurnRecord()
                    let observe: (Int) -> Void = { value in
                        if record.inside.exchange(true, ordering: .acquiringAndReleasing) {
                            record.lock.withLock { record.problems.append("two calls at once") }
                        }
                        let first = record.lock.withLock { () -> Bool in
                            if let last = record.last, value != last + 1 { record.problems.append("\(value) after \(last)") }
                            defer { record.last = value }
                            return record.last == nil
                        }
                        // The first call (the replay, with replay 1) takes a while, so that
                        // elements sent meanwhile must wait for it rather than overtake it.
                        if first { usleep(20) }
                        record.received.add(1, ordering: .relaxed)
                        record.inside.store(false, ordering: .releasing)
                    }
                    let subscription = (thread + round).isMultiple(of: 2)
                        ? shared.take(3).subscribe(onNext: observe)
                        : shared.subscribe(onNext: observe)
                    let deadline = Date().addingTimeInterval(10)
                    while record.received.load(ordering: .relaxed) < 3, Date() < deadline { sched_yield() }
                    subscription.dispose()
                    let seen = record.lock.withLock { record.problems }
                    let received = record.received.load(ordering: .relaxed)
                    if !seen.isEmpty || received < 3 {
                        problems.withLock { $0.append("round \(round): received \(received), \(seen.prefix(3))") }
                    }
                }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 300) == .success, "churning subscribers did not finish")
        stop.store(true, ordering: .relaxed)
        #expect(pumped.wait(timeout: .now() + 30) == .success)
        #expect(!subject.hasObservers, "the last observer to leave disposes the source's subscription")
        let found = problems.withLock { $0 }
        #expect(found.isEmpty, "\(found.count) subscribers: \(found.prefix(5))")
    }

    /// The last observer of the dedicated `share(replay: 0 | 1)` leaves on one thread while the
    /// source completes on another, 1,000 times: whichever comes first ends the connection, the
    /// source's subscription is disposed either way, the observer receives at most the
    /// completion, and the next observer starts a new connection.
    @Test(arguments: [0, 1]) func theLastObserverLeavingRacesTheSourceCompleting(replay: Int) {
        var problems: [String] = []
        for round in 0..<Self.rounds {
            let subscribed = Atomic<Int>(0)
            let disposed = Atomic<Int>(0)
            let subject = PublishSubject<Int>()
            let shared = Observable<Int>.create { observer in
                subscribed.add(1, ordering: .relaxed)
                let subscription = subject.subscribe(observer)
                return Disposables.create {
                    disposed.add(1, ordering: .relaxed)
                    subscription.dispose()
                }
            }.share(replay: replay)
            let record = Record()
            let subscription = UncheckedSendable(shared.subscribe(
                onNext: { _ in record.lock.withLock { record.elements += 1 } },
                onCompleted: { record.lock.withLock { record.completed += 1 } }))
            subject.onNext(1)
            let ready = Atomic<Int>(0)
            let group = DispatchGroup()
            for racer in 0..<2 {
                group.enter()
                Thread.detachNewThread {
                    ready.add(1, ordering: .relaxed)
                    while ready.load(ordering: .relaxed) < 2 { sched_yield() }
                    if racer == 0 { subject.onCompleted() } else { subscription.value.dispose() }
                    group.leave()
                }
            }
            if group.wait(timeout: .now() + 30) != .success { problems.append("round \(round): the racers did not finish") }
            let (elements, completed) = record.lock.withLock { (record.elements, record.completed) }
            if elements != 1 || completed > 1 { problems.append("round \(round): \(elements) elements, \(completed) completions") }
            if disposed.load(ordering: .relaxed) != 1 { problems.append("round \(round): the source was disposed \(disposed.load(ordering: .relaxed)) times") }
            // The next observer connects anew (to a completed subject: it completes at once).
            var again: [Event<Int>] = []
            _ = shared.subscribe { again.append($0) }
            if again != [.completed] || subscribed.load(ordering: .relaxed) != 2 || disposed.load(ordering: .relaxed) != 2 {
                problems.append("round \(round): the next observer got \(again), \(subscribed.load(ordering: .relaxed)) subscriptions")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) rounds: \(problems.prefix(5))")
    }

    /// `zip` of 1,000 `take(1)` over one shared interval on a concurrent scheduler: each
    /// `take(1)` subscribes, receives one element and leaves while the others join, so the
    /// connection is joined and left from many threads at once. Every round must produce one
    /// array of 1,000 elements and complete.
    @Test(arguments: [0, 1]) func zipOfManyTakeOneOverASharedInterval(replay: Int) {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        for _ in 0..<5 {
            let shared = Observable<Int>.interval(.microseconds(200), scheduler: scheduler).share(replay: replay)
            let done = DispatchSemaphore(value: 0)
            let result = Locked<(arrays: [[Int]], completed: Int, error: Error?)>(([], 0, nil))
            let subscription = Observable.zip((0..<1_000).map { _ in shared.take(1) }).subscribe(
                onNext: { array in result.withLock { $0.arrays.append(array) } },
                onError: { error in result.withLock { $0.error = error }; done.signal() },
                onCompleted: { result.withLock { $0.completed += 1 }; done.signal() })
            #expect(done.wait(timeout: .now() + 30) == .success, "zip of take(1) never completed")
            subscription.dispose()
            result.withLock { result in
                #expect(result.error == nil)
                #expect(result.completed == 1)
                #expect(result.arrays.map(\.count) == [1_000])
            }
        }
    }

    /// `merge` of two shared intervals, `take(1)`, with an observer slow enough that both
    /// intervals tick while it handles the first element: exactly one element, one completion,
    /// and both connections disposed, every round.
    @Test func mergeOfTwoSharedIntervalsWithASlowObserverTakesOne() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        for _ in 0..<200 {
            let subscribed = Atomic<Int>(0)
            let disposed = Atomic<Int>(0)
            func sharedInterval() -> Observable<Int> {
                Observable<Int>.interval(.microseconds(100), scheduler: scheduler)
                    .do(onSubscribed: { subscribed.add(1, ordering: .relaxed) }, onDispose: { disposed.add(1, ordering: .relaxed) })
                    .share(replay: 1)
            }
            let record = Record()
            let done = DispatchSemaphore(value: 0)
            let subscription = Observable.merge(sharedInterval(), sharedInterval()).take(1).subscribe(
                onNext: { _ in
                    usleep(300)
                    record.lock.withLock { record.elements += 1 }
                },
                onCompleted: { record.lock.withLock { record.completed += 1 }; done.signal() },
                onDisposed: { record.lock.withLock { record.disposed += 1 } })
            #expect(done.wait(timeout: .now() + 10) == .success, "merge of shared intervals never completed")
            subscription.dispose()
            // The interval's last tick may still be running on another thread; wait for both
            // sources to be disposed, and for `onDisposed`, which the thread that delivered the
            // completion calls after `onCompleted` (this thread may dispose the sources first).
            let deadline = Date().addingTimeInterval(5)
            while disposed.load(ordering: .relaxed) < 2 || record.lock.withLock({ record.disposed }) < 1, Date() < deadline { usleep(100) }
            #expect(subscribed.load(ordering: .relaxed) == 2)
            #expect(disposed.load(ordering: .relaxed) == 2)
            record.lock.withLock {
                #expect(record.elements == 1)
                #expect(record.completed == 1)
                #expect(record.disposed == 1)
            }
        }
    }
}
