import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct CurrentThreadSchedulerTests {
    @Test func recursiveSchedulingDoesNotGrowTheStack() {
        var count = 0
        let disposable = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
            count = value
            if value < 200_000 { recurse(value + 1) }
        }
        #expect(count == 200_000)
        disposable.dispose()
    }

    @Test func nestedScheduleRunsAfterTheCurrentAction() {
        var log: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            log.append("outer start")
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                log.append("inner")
                return Disposables.create()
            }
            #expect(!CurrentThreadScheduler.isScheduleRequired)
            log.append("outer end")
            return Disposables.create()
        }
        #expect(log == ["outer start", "outer end", "inner"])
        #expect(CurrentThreadScheduler.isScheduleRequired)
    }

    @Test func aLongSynchronousSequenceIsDeliveredWithoutRecursion() {
        var sum = 0
        let subscription = Observable.from(Array(1...100_000)).subscribe(onNext: { sum += $0 })
        #expect(sum == 5_000_050_000)
        subscription.dispose()
    }

    @Test func disposingAQueuedItemSkipsIt() {
        var ran = false
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            let queued = CurrentThreadScheduler.instance.schedule(()) { _ in
                ran = true
                return Disposables.create()
            }
            queued.dispose()
            return Disposables.create()
        }
        #expect(!ran)
    }
}

@Suite(.resourceCheck) struct MainSchedulerTests {
    @Test func asyncInstanceQueuesUntilDrained() {
        var log: [Int] = []
        _ = MainScheduler.asyncInstance.schedule(1) { value in
            log.append(value)
            return Disposables.create()
        }
        #expect(log.isEmpty)
        MainScheduler.drain()
        #expect(log == [1])
    }

    @Test func workScheduledInsideADrainRunsInTheSameDrainInOrder() {
        var log: [String] = []
        let background = DispatchQueue(label: "background")
        background.sync {
            _ = MainScheduler.instance.schedule(()) { _ in
                #expect(MainScheduler.isOnMainScheduler)
                log.append("first")
                _ = MainScheduler.instance.schedule(()) { _ in
                    log.append("nested")
                    return Disposables.create()
                }
                log.append("first end")
                return Disposables.create()
            }
        }
        #expect(log.isEmpty)
        MainScheduler.drain()
        #expect(log == ["first", "first end", "nested"])
    }

    @Test func runUntilWaitsForDelayedWork() {
        let done = AtomicCounter()
        _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            done.increment()
            return Disposables.create()
        }
        let finished = MainScheduler.run(until: { done.value == 1 }, timeout: 10)
        #expect(finished)
    }

    @Test func disposedWorkNeverRuns() {
        var ran = false
        let item = MainScheduler.asyncInstance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        item.dispose()
        MainScheduler.drain()
        #expect(!ran)
    }

    @Test func workFromManyThreadsRunsSeriallyAndCompletely() {
        let inFlight = AtomicCounter()
        let maxInFlight = AtomicCounter()
        let total = AtomicCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                _ = MainScheduler.instance.schedule(()) { _ in
                    let now = inFlight.increment()
                    if now > 1 { maxInFlight.increment() }
                    total.increment()
                    inFlight.decrement()
                    return Disposables.create()
                }
            }
        }
        let drained = MainScheduler.run(until: { total.value == 1_600 }, timeout: 10)
        #expect(drained)
        #expect(maxInFlight.value == 0)
    }
}

/// A thread-safe counter for tests.
final class AtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    @discardableResult
    func increment() -> Int { lock.withLock { count += 1; return count } }

    @discardableResult
    func decrement() -> Int { lock.withLock { count -= 1; return count } }
}
