import Dispatch
import Foundation
import Streams
import StreamsTesting
import TestSupport
import Synchronization
import Testing

/// Smaller RxSwift 6 names: ConcurrentMainScheduler, MainScheduler's initializer and check,
/// Single.create with async work, the subjects' SubjectObserverType, RxObservable.
@Suite(.resourceCheck) struct RxSwiftNamesTests {
    @Test func concurrentMainSchedulerRunsAtOnceOnTheMainThreadAndQueuesFromElsewhere() async {
        // From a background thread the work is queued on the main scheduler, not run inline.
        let ranInline = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async {
                // Read here, set by the drain below on the test's thread: a flag both may touch.
                let ran = SharedFlag()
                _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
                    ran.value.store(true, ordering: .relaxed)
                    return Disposables.create()
                }
                continuation.resume(returning: ran.value.load(ordering: .relaxed))
            }
        }
        #expect(!ranInline)
        #expect(MainScheduler.drain() >= 1)
        // Inside a drain (the main thread of headless code) it runs inside `schedule`, even
        // with other main-scheduler work queued behind it.
        var order: [String] = []
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            _ = MainScheduler.asyncInstance.schedule(()) { _ in order.append("queued"); return Disposables.create() }
            _ = ConcurrentMainScheduler.instance.schedule(()) { _ in order.append("inline"); return Disposables.create() }
            return Disposables.create()
        }
        _ = MainScheduler.drain()
        #expect(order == ["inline", "queued"])
    }

    @Test func aNewMainSchedulerSharesTheMainQueue() {
        let scheduler = MainScheduler()
        var order: [Int] = []
        DispatchQueue.global().sync {
            _ = MainScheduler.asyncInstance.schedule(()) { _ in order.append(1); return Disposables.create() }
            _ = scheduler.schedule(()) { _ in order.append(2); return Disposables.create() }
        }
        _ = MainScheduler.drain()
        #expect(order == [1, 2])
    }

    @Test func singleCreateRunsAsyncWorkAndCancelsItOnDispose() async throws {
        let answer = try await Single<Int>.create { 6 * 7 }.value
        #expect(answer == 42)
        await #expect(throws: TestError.boom) {
            _ = try await Single<Int>.create(detached: true, priority: .low) { throw TestError.boom }.value
        }
        let cancelled = AsyncTestBox(false)
        let started = AsyncTestBox(false)
        let subscription = Single<Int>.create {
            started.update { $0 = true }
            do { try await Task.sleep(for: .seconds(30)) } catch { cancelled.update { $0 = true }; throw error }
            return 1
        }.subscribe(onSuccess: { _ in Issue.record("no success after dispose") })
        while !started.value { await Task.yield() }
        subscription.dispose()
        while !cancelled.value { await Task.yield() }
        #expect(cancelled.value)
    }

    @Test func subjectsNameTheirObserverTypeAndRxObservableIsObservable() {
        let subject: PublishSubject<Int>.SubjectObserverType = PublishSubject<Int>()
        let replay: ReplaySubject<Int>.SubjectObserverType = ReplaySubject.create(bufferSize: 1)
        let behavior: BehaviorSubject<Int>.SubjectObserverType = BehaviorSubject(value: 0)
        let async: AsyncSubject<Int>.SubjectObserverType = AsyncSubject()
        let plain: RxObservable<Int> = subject.asObservable()
        var received: [Int] = []
        let subscription = Observable.merge(plain, replay.asObservable(), behavior.asObservable(), async.asObservable()).subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        replay.onNext(2)
        behavior.onNext(3)
        async.onNext(4)
        async.onCompleted()
        #expect(received == [0, 1, 2, 3, 4])
        subscription.dispose()
        let scheduler: ConcurrentDispatchQueueScheduler.TimeInterval = 1.5
        let time: SerialDispatchQueueScheduler.Time = Date(timeIntervalSince1970: scheduler)
        #expect(time.timeIntervalSince1970 == 1.5)
    }
}

/// A flag one thread sets and another reads.
private final class SharedFlag: Sendable {
    let value = Atomic<Bool>(false)
}
