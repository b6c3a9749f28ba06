import Dispatch
import Foundation
import Streams
import TestSupport
import Testing

@Suite(.resourceCheck) struct SerialDispatchQueueSchedulerTests {
    private func makeScheduler(_ marker: QueueMarker) -> SerialDispatchQueueScheduler {
        SerialDispatchQueueScheduler(internalSerialQueueName: "test.serial", serialQueueConfiguration: { marker.mark($0) })
    }

    @Test func scheduleRunsOnTheQueueInOrder() {
        let marker = QueueMarker("serial")
        let scheduler = makeScheduler(marker)
        let seen = LockedList<(Int, Bool)>()
        let done = Signal()
        for index in 0..<100 {
            _ = scheduler.schedule(index) { index in
                seen.append((index, marker.isCurrent))
                if index == 99 { done.fire() }
                return Disposables.create()
            }
        }
        #expect(done.wait())
        #expect(seen.values.map(\.0) == Array(0..<100))
        #expect(seen.values.allSatisfy { $0.1 })
    }

    @Test func disposingBeforeItRunsCancelsTheAction() {
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let gate = DispatchSemaphore(value: 0)
        let ran = LockedList<String>()
        let done = Signal()
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        let cancelled = scheduler.schedule(()) { _ in ran.append("cancelled"); return Disposables.create() }
        _ = scheduler.schedule(()) { _ in ran.append("marker"); done.fire(); return Disposables.create() }
        cancelled.dispose()
        gate.signal()
        #expect(done.wait())
        #expect(ran.values == ["marker"])
    }

    @Test func scheduleRelativeRunsOnTheQueue() {
        let marker = QueueMarker("relative")
        let scheduler = makeScheduler(marker)
        let onQueue = LockedList<Bool>()
        let done = Signal()
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            onQueue.append(marker.isCurrent)
            done.fire()
            return Disposables.create()
        }
        #expect(done.wait())
        #expect(onQueue.values == [true])
    }

    @Test func disposedRelativeActionNeverRuns() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.cancel")
        let gate = DispatchSemaphore(value: 0)
        let ran = LockedList<String>()
        let done = Signal()
        // Block the queue so the timer cannot fire before it is disposed.
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        let timer = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
            ran.append("timer")
            return Disposables.create()
        }
        timer.dispose()
        gate.signal()
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(30)) { _ in
            ran.append("marker")
            done.fire()
            return Disposables.create()
        }
        #expect(done.wait())
        #expect(ran.values == ["marker"])
    }

    @Test func disposingAfterItRanDisposesWhatTheActionReturned() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.inner")
        let inner = BooleanDisposable()
        let done = Signal()
        let timer = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
            done.fire()
            return inner
        }
        #expect(done.wait())
        // The action's result is stored after it returns; wait until a later action ran.
        let flushed = Signal()
        _ = scheduler.schedule(()) { _ in flushed.fire(); return Disposables.create() }
        #expect(flushed.wait())
        #expect(!inner.isDisposed)
        timer.dispose()
        #expect(inner.isDisposed)
    }

    @Test func periodicThreadsStateUntilDisposed() {
        let marker = QueueMarker("periodic")
        let scheduler = makeScheduler(marker)
        let states = LockedList<Int>()
        let onQueue = LockedList<Bool>()
        let reachedFive = Signal()
        let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(2)) { state in
            states.append(state)
            onQueue.append(marker.isCurrent)
            if state == 4 { reachedFive.fire() }
            return state + 1
        }
        #expect(reachedFive.wait())
        periodic.dispose()
        // Every tick runs on the serial queue, so once an action queued after the dispose has
        // run, no tick can follow: the count must stay put across several periods.
        let flushed = Signal()
        _ = scheduler.schedule(()) { _ in flushed.fire(); return Disposables.create() }
        #expect(flushed.wait())
        let countAfterDispose = states.count
        let later = Signal()
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in later.fire(); return Disposables.create() }
        #expect(later.wait())
        #expect(states.count == countAfterDispose)
        #expect(Array(states.values.prefix(5)) == [0, 1, 2, 3, 4])
        #expect(states.values == Array(0..<states.count))
        #expect(onQueue.values.allSatisfy { $0 })
    }

    @Test func queueTargetingInitRunsWork() {
        let scheduler = SerialDispatchQueueScheduler(queue: .global(), internalSerialQueueName: "test.target")
        let done = Signal()
        _ = scheduler.schedule(()) { _ in done.fire(); return Disposables.create() }
        #expect(done.wait())
    }
}
