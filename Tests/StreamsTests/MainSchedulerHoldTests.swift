import Dispatch
import Foundation
import Locking
@testable import Streams
import StreamsTesting
import Testing

/// A test owns the main scheduler: with Apple platforms' setting (the main dispatch queue drains
/// the main scheduler on its own), work the test queues stays queued until the test drains it,
/// even while the main dispatch queue runs. `swift test` on Linux services the main dispatch
/// queue from a worker thread, so a test that is not on the main actor sees it run here too.
@Suite(.resourceCheck) struct MainSchedulerHoldTests {
    /// Lets everything the main dispatch queue holds now run, then returns.
    private func mainQueueTurn() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { done.resume() }
        }
    }

    /// Queues work from another thread (the calling test thread may count as the main actor's).
    private func queueFromAnotherThread(_ ran: Locked<Int>) async {
        await Task.detached {
            _ = MainScheduler.instance.schedule(()) { _ in
                ran.withLock { $0 += 1 }
                return Disposables.create()
            }
        }.value
    }

    @Test func theTraitHoldsTheScheduler() {
        #expect(MainScheduler.automaticDrainsHeld)
    }

    @Test func theMainDispatchQueueLeavesHeldWorkQueued() async {
        let previous = MainScheduler.drainsOnMainDispatchQueue
        MainScheduler.drainsOnMainDispatchQueue = true
        defer { MainScheduler.drainsOnMainDispatchQueue = previous }
        let ran = Locked(0)
        await queueFromAnotherThread(ran)
        await mainQueueTurn()
        await mainQueueTurn()
        #expect(ran.withLock { $0 } == 0, "the main dispatch queue drained the scheduler behind the test's back")
        #expect(MainScheduler.pendingCount == 1)
        #expect(MainScheduler.drain() == 1)
        #expect(ran.withLock { $0 } == 1)
    }

    @Test func holdsNestAndTheLastEndAsksForAnAutomaticDrain() async {
        let previous = MainScheduler.drainsOnMainDispatchQueue
        MainScheduler.drainsOnMainDispatchQueue = true
        defer { MainScheduler.drainsOnMainDispatchQueue = previous }
        let ran = Locked(0)
        await MainScheduler.holdingAutomaticDrains {
            await queueFromAnotherThread(ran)
            await mainQueueTurn()
        }
        // The inner hold ended but the trait's still holds.
        await mainQueueTurn()
        #expect(ran.withLock { $0 } == 0)
        // Lift the trait's hold for a moment: the refused drain is asked for again and runs.
        MainQueue.shared.endHold()
        await mainQueueTurn()
        MainQueue.shared.beginHold()
        #expect(ran.withLock { $0 } == 1, "work queued while held was stranded after the hold ended")
        #expect(MainScheduler.pendingCount == 0)
    }

    @Test func unheldTheMainDispatchQueueDrainsOnItsOwn() async {
        // The control: Apple platforms' behaviour that the hold exists to stop.
        let previous = MainScheduler.drainsOnMainDispatchQueue
        MainScheduler.drainsOnMainDispatchQueue = true
        defer { MainScheduler.drainsOnMainDispatchQueue = previous }
        let ran = Locked(0)
        MainQueue.shared.endHold()
        await queueFromAnotherThread(ran)
        await mainQueueTurn()
        MainQueue.shared.beginHold()
        #expect(ran.withLock { $0 } == 1)
    }

    @Test func theSynchronousFormHoldsAndReturnsItsValue() {
        let value = MainScheduler.holdingAutomaticDrains { MainScheduler.automaticDrainsHeld ? 7 : 0 }
        #expect(value == 7)
        #expect(MainScheduler.automaticDrainsHeld)
    }
}
