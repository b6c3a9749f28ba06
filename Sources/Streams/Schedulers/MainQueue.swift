import Dispatch
import Foundation
import Locking

/// A mark on `DispatchQueue.main`: code running as work of the main queue reads it back.
enum MainQueueMark {
    private static let key = DispatchSpecificKey<UInt8>()
    private static let installed: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return true
    }()

    /// Whether the calling code runs as work of the main dispatch queue.
    static var isOnMainQueue: Bool {
        _ = installed
        return DispatchQueue.getSpecific(key: key) != nil
    }
}

/// The queue behind ``MainScheduler``.
final class MainQueue: @unchecked Sendable {
    static let shared = MainQueue()

    private let condition = NSCondition()
    private var items: [ScheduledItem] = []
    private var head = 0
    /// How many actions are executing (an inline one, or a drained one, possibly nested).
    private var running = 0
    /// How many threads are inside ``drain(until:)`` (nested drains count each).
    private var draining = 0
    /// How many actions have been taken off the queue, ever: a waiting thread that sees it
    /// stand still while work is queued knows that nobody is draining.
    private var taken: UInt64 = 0
    /// Held while main-scheduler work executes, so work never runs on two threads at once.
    private let executionLock = RecursiveLock()

    var pendingCount: Int {
        condition.lock(); defer { condition.unlock() }
        return items.count - head
    }

    /// Claims the right to run inline: nothing queued and nothing executing. On success the
    /// caller holds the execution lock until ``endInline()``.
    func beginInline() -> Bool {
        executionLock.lock()
        condition.lock()
        let allowed = items.count == head && running == 0
        if allowed { running += 1 }
        condition.unlock()
        if !allowed { executionLock.unlock() }
        return allowed
    }

    /// Runs `body` with the execution lock held but as no action: work it schedules inline is
    /// allowed (``beginInline()`` takes the lock again, recursively) while drains elsewhere wait.
    func runHoldingExecution<T>(_ body: () throws -> T) rethrows -> T {
        executionLock.lock()
        defer { executionLock.unlock() }
        return try body()
    }

    func endInline() {
        condition.lock(); running -= 1; condition.unlock()
        executionLock.unlock()
    }

    func enqueue(_ item: ScheduledItem) {
        condition.lock()
        items.append(item)
        condition.broadcast()
        let askRunLoop = !runLoopDrainPending
        runLoopDrainPending = true
        condition.unlock()
        requestAutomaticDrain(askRunLoop: askRunLoop)
    }

    private func requestAutomaticDrain(askRunLoop: Bool) {
        if MainScheduler.drainsOnMainDispatchQueue {
            DispatchQueue.main.async { MainQueue.shared.automaticDrain() }
        } else if askRunLoop {
            askMainRunLoopToDrain()
        }
    }

    /// How many ``MainScheduler/holdingAutomaticDrains(_:)`` are in progress.
    private var holds = 0
    /// Set when an automatic drain found the scheduler held: the last hold's end asks again.
    private var drainRefused = false

    var isHeld: Bool {
        condition.lock(); defer { condition.unlock() }
        return holds > 0
    }

    func beginHold() {
        condition.lock(); holds += 1; condition.unlock()
    }

    func endHold() {
        condition.lock()
        holds -= 1
        let askAgain = holds == 0 && drainRefused && items.count > head
        if holds == 0 { drainRefused = false }
        var askRunLoop = false
        if askAgain {
            askRunLoop = !runLoopDrainPending
            runLoopDrainPending = true
        }
        condition.unlock()
        if askAgain { requestAutomaticDrain(askRunLoop: askRunLoop) }
    }

    /// A drain nobody asked for in code: the main dispatch queue's or the run loop's. Refused
    /// while the scheduler is held.
    private func automaticDrain() {
        condition.lock()
        let held = holds > 0
        if held { drainRefused = true }
        condition.unlock()
        if !held { _ = drain() }
    }

    /// Set while a drain request waits in the main run loop: at most one ever waits, so a
    /// process whose main run loop never runs holds one block, not one per action.
    private var runLoopDrainPending = false

    /// Asks the main run loop to drain the queue the next time it runs: a test (or a program)
    /// that pumps it on the main thread with `RunLoop.main.run(until:)`, as RxSwift-era tests
    /// do, sees main-scheduler work run, on Linux as on Apple platforms. Only the run loop runs
    /// such blocks (the main dispatch queue does not), so a process that never pumps it keeps
    /// draining explicitly, with nothing run behind its back.
    private func askMainRunLoopToDrain() {
        RunLoop.main.perform {
            MainQueue.shared.condition.lock()
            MainQueue.shared.runLoopDrainPending = false
            MainQueue.shared.condition.unlock()
            MainQueue.shared.automaticDrain()
        }
        // Wake the main run loop if it sleeps in `run(until:)`: the main dispatch queue is one of
        // its sources, and an empty block is enough to make it look at its blocks again.
        DispatchQueue.main.async {}
    }

    func waitForWork(upTo seconds: TimeInterval) {
        condition.lock()
        if items.count == head { _ = condition.wait(until: Date().addingTimeInterval(seconds)) }
        condition.unlock()
    }

    func drain() -> Int {
        condition.lock(); draining += 1; condition.unlock()
        return drainClaimed(until: { false })
    }

    /// Drains when work is queued, nobody runs it and nothing was taken off the queue for
    /// `grace` seconds (see ``MainScheduler/drainUnattended(_:grace:until:)``).
    func drainUnattended(_ watch: inout MainScheduler.UnattendedWatch, grace: TimeInterval, until stop: () -> Bool) -> Int {
        condition.lock()
        guard items.count > head, draining == 0, running == 0 else {
            watch.taken = .max
            condition.unlock()
            return 0
        }
        if watch.taken != taken {
            // Work is queued and idle since now (or since the last action was taken).
            watch.taken = taken
            watch.since = Date()
        }
        guard grace <= 0 || Date().timeIntervalSince(watch.since) >= grace else {
            condition.unlock()
            return 0
        }
        // Claimed under the same lock that showed nobody draining: a second waiting thread now
        // sees `draining` and leaves the work to this one.
        draining += 1
        condition.unlock()
        watch.taken = .max
        return drainClaimed(until: stop)
    }

    /// Runs queued actions until the queue is empty or `stop` holds; the caller has counted
    /// itself in ``draining``.
    private func drainClaimed(until stop: () -> Bool) -> Int {
        executionLock.lock()
        defer {
            executionLock.unlock()
            condition.lock(); draining -= 1; condition.unlock()
        }
        let trampoline = TrampolineState.currentOrCreate()
        let wasDraining = trampoline.isDrainingMain
        trampoline.isDrainingMain = true
        defer { trampoline.isDrainingMain = wasDraining }
        var count = 0
        while !stop(), let item = next() {
            if !item.isDisposed {
                item.invoke()
                count += 1
            }
            condition.lock(); running -= 1; condition.unlock()
        }
        return count
    }

    private func next() -> ScheduledItem? {
        condition.lock(); defer { condition.unlock() }
        guard head < items.count else {
            items.removeAll(keepingCapacity: true)
            head = 0
            return nil
        }
        let item = items[head]
        head += 1
        running += 1
        taken &+= 1
        if head > 1_024, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}
