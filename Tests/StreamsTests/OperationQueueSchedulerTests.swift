import Dispatch
import Foundation
import Streams
import TestSupport
import Testing

@Suite(.resourceCheck) struct OperationQueueSchedulerTests {
    private func makeQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }

    @Test func scheduleRunsOnTheOperationQueue() {
        let queue = makeQueue()
        let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
        let onQueue = LockedList<Bool>()
        let done = Signal()
        _ = scheduler.schedule(()) { _ in
            onQueue.append(OperationQueue.current === queue)
            done.fire()
            return Disposables.create()
        }
        #expect(done.wait())
        #expect(onQueue.values == [true])
        #expect(scheduler.queuePriority == .high)
    }

    @Test func disposingCancelsAWaitingOperation() {
        let queue = makeQueue()
        let scheduler = OperationQueueScheduler(operationQueue: queue)
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

    @Test func scheduleRelativeRunsOnTheOperationQueue() {
        let queue = makeQueue()
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let onQueue = LockedList<Bool>()
        let done = Signal()
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(10)) { _ in
            onQueue.append(OperationQueue.current === queue)
            done.fire()
            return Disposables.create()
        }
        #expect(done.wait())
        #expect(onQueue.values == [true])
    }

    @Test func periodicCountsUntilDisposed() {
        let scheduler = OperationQueueScheduler(operationQueue: makeQueue())
        let states = LockedList<Int>()
        let reached = Signal()
        let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) { state in
            states.append(state)
            if state == 4 { reached.fire() }
            return state + 1
        }
        #expect(reached.wait())
        periodic.dispose()
        #expect(Array(states.values.prefix(5)) == [0, 1, 2, 3, 4])
    }

    @Test func drivesAnInterval() {
        let scheduler = OperationQueueScheduler(operationQueue: makeQueue())
        let values = LockedList<Int>()
        let done = Signal()
        let subscription = Observable<Int>.interval(.milliseconds(1), scheduler: scheduler)
            .subscribe(onNext: { value in
                values.append(value)
                if value == 3 { done.fire() }
            })
        #expect(done.wait())
        subscription.dispose()
        #expect(Array(values.values.prefix(4)) == [0, 1, 2, 3])
    }
}
