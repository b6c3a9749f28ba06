import Dispatch
import Foundation
import Streams
import TestSupport
import Testing

@Suite(.resourceCheck) struct ConcurrentDispatchQueueSchedulerTests {
    @Test func scheduleRunsEveryAction() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let seen = LockedList<Int>()
        let group = DispatchGroup()
        for index in 0..<200 {
            group.enter()
            _ = scheduler.schedule(index) { index in
                seen.append(index)
                group.leave()
                return Disposables.create()
            }
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(seen.values.sorted() == Array(0..<200))
    }

    @Test func scheduleRelativeRunsOnTheGivenQueue() {
        let marker = QueueMarker("concurrent")
        let queue = DispatchQueue(label: "test.concurrent", attributes: .concurrent)
        marker.mark(queue)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let onQueue = LockedList<Bool>()
        let done = Signal()
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(5)) { _ in
            onQueue.append(marker.isCurrent)
            done.fire()
            return Disposables.create()
        }
        #expect(done.wait())
        #expect(onQueue.values == [true])
    }

    @Test func neverDueTimeNeverRuns() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let ran = LockedList<Int>()
        let disposable = scheduler.scheduleRelative((), dueTime: .never) { _ in ran.append(1); return Disposables.create() }
        disposable.dispose()
        #expect(ran.count == 0)
    }

    @Test func periodicTicksNeverOverlapAndStopOnDispose() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let overlaps = LockedList<Int>()
        let states = LockedList<Int>()
        let reached = Signal()
        let active = NSLock()
        let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) { state in
            if !active.try() { overlaps.append(state) }
            states.append(state)
            if state == 9 { reached.fire() }
            active.unlock()
            return state + 1
        }
        #expect(reached.wait())
        periodic.dispose()
        #expect(overlaps.count == 0)
        #expect(Array(states.values.prefix(10)) == Array(0..<10))
    }
}
