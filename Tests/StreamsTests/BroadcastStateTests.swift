@testable import Streams
import Testing

/// `BroadcastState`, the rules of every subject and of every connection of the dedicated
/// `share`, driven with no thread, no element and no observer: each call says what the owner
/// must do.
@Suite struct BroadcastStateTests {
    // MARK: Who delivers, and in which order

    @Test func theFirstSenderDeliversAndLaterOnesQueueUntilTheBacklogIsTaken() {
        var state = BroadcastState()
        #expect(state.emit(isStop: false) == .deliver(sequence: 0))
        #expect(state.isDraining)
        // Re-entrant (or concurrent) sends while element 0 is delivered.
        #expect(state.emit(isStop: false) == .queue(sequence: 1))
        #expect(state.emit(isStop: false) == .queue(sequence: 2))
        // The deliverer takes the backlog, delivers it, and only then stops.
        #expect(state.takeBacklog() == true)
        #expect(state.isDraining)
        #expect(state.takeBacklog() == false)
        #expect(!state.isDraining)
        #expect(state.emit(isStop: false) == .deliver(sequence: 3))
        #expect(state.accepted == 4)
    }

    @Test func aTerminalEventSentWhileDeliveringIsQueuedToo() {
        var state = BroadcastState()
        #expect(state.emit(isStop: false) == .deliver(sequence: 0))
        #expect(state.emit(isStop: true) == .queue(sequence: 1))
        #expect(state.takeBacklog() == true)
        #expect(state.takeBacklog() == false)
        #expect(!state.isDraining)
    }

    // MARK: Ending

    @Test func aTerminalEventIsTheLastOneAcceptedAndLetsTheObserversGo() {
        var state = BroadcastState()
        let entry = BroadcastEntry(firstSequence: 0)
        state.add(entry)
        #expect(state.emit(isStop: true) == .deliver(sequence: 0))
        // Over once accepted, not when delivered: still delivering, later events reach nobody.
        #expect(state.isStopped)
        let targets = state.deliveryTargets(isStop: true)
        #expect(targets.count == 1 && targets[0] === entry)
        #expect(state.observers.isEmpty)
        #expect(state.emit(isStop: false) == .drop)
        #expect(state.emit(isStop: true) == .drop)
        #expect(state.accepted == 1)
        #expect(state.disconnect() == false)
        #expect(state.subscribe() == .replayEnded)
    }

    @Test func anElementBeingDeliveredKeepsTheObservers() {
        var state = BroadcastState()
        state.add(BroadcastEntry(firstSequence: 0))
        _ = state.emit(isStop: false)
        let targets = state.deliveryTargets(isStop: false)
        #expect(targets.count == 1)
        #expect(state.observers.count == 1)
    }

    @Test func theFinalPairTakesTwoNumbersAndEndsTheBroadcast() {
        var state = BroadcastState()
        _ = state.emit(isStop: false)
        #expect(state.emitFinal() == .queue(sequence: 1))   // the first sender still delivers
        #expect(state.accepted == 3)
        #expect(state.isStopped)
        #expect(state.emitFinal() == .drop)
    }

    @Test func theFinalPairIsDeliveredByItsSenderWhenNobodyDelivers() {
        var state = BroadcastState()
        #expect(state.emitFinal() == .deliver(sequence: 0))
        #expect(state.accepted == 2)
    }

    @Test func aDisposedBroadcastAcceptsNothingAndFailsSubscribers() {
        var state = BroadcastState()
        state.add(BroadcastEntry(firstSequence: 0))
        _ = state.emit(isStop: false)
        _ = state.emit(isStop: false)
        state.dispose()
        #expect(state.observers.isEmpty)
        #expect(!state.hasBacklog)
        #expect(state.emit(isStop: false) == .drop)
        #expect(state.emit(isStop: true) == .drop)
        #expect(state.subscribe() == .fail)
    }

    @Test func theLastObserverLeavingDropsLaterEvents() {
        var state = BroadcastState()
        #expect(state.disconnect() == true)
        #expect(state.disconnect() == false)
        #expect(state.emit(isStop: false) == .drop)
        #expect(state.emit(isStop: true) == .drop)
    }

    @Test func detachLetsGoOfTheObservers() {
        var state = BroadcastState()
        state.add(BroadcastEntry(firstSequence: 0))
        let released = state.detach()
        #expect(released.count == 1)
        #expect(state.observers.isEmpty)
        #expect(state.emit(isStop: false) == .deliver(sequence: 0))   // still open
    }

    // MARK: Subscribers

    @Test func aSubscriberReceivesEventsFromTheNextNumberOn() {
        var state = BroadcastState()
        #expect(state.subscribe() == .join(firstSequence: 0))
        _ = state.emit(isStop: false)
        _ = state.emit(isStop: false)
        #expect(state.subscribe() == .join(firstSequence: 2))
    }

    @Test func aSubscriberGoesLiveOnlyWithAnEmptyCatchUp() {
        var state = BroadcastState()
        #expect(state.finishCatchUp(hasCatchUp: false) == .goLive)
        // Nobody delivers: the subscriber delivers what waits itself, then looks again.
        #expect(state.finishCatchUp(hasCatchUp: true) == .deliverBatch)
        #expect(!state.hasBacklog)
        // A deliverer is at work: the catch-up becomes its backlog, so it does not stop before
        // delivering it.
        _ = state.emit(isStop: false)
        #expect(state.finishCatchUp(hasCatchUp: false) == .goLive)
        #expect(!state.hasBacklog)
        #expect(state.finishCatchUp(hasCatchUp: true) == .handOver)
        #expect(state.hasBacklog)
        #expect(state.takeBacklog() == true)
        #expect(state.takeBacklog() == false)
    }

    @Test func removingASubscriberReportsWhetherABacklogMayHoldIt() {
        var state = BroadcastState()
        let a = BroadcastEntry(firstSequence: 0)
        let b = BroadcastEntry(firstSequence: 0)
        state.add(a)
        state.add(b)
        let quiet = state.remove(ObjectIdentifier(a))
        #expect(quiet.removed === a)
        #expect(!quiet.backlogMayHoldIt)
        #expect(state.observers.count == 1 && state.observers[0] === b)
        _ = state.emit(isStop: false)
        _ = state.emit(isStop: false)             // queued: a backlog
        let busy = state.remove(ObjectIdentifier(b))
        #expect(busy.removed === b)
        #expect(busy.backlogMayHoldIt)
        #expect(state.observers.isEmpty)
        let gone = state.remove(ObjectIdentifier(a))
        #expect(gone.removed == nil)
    }

    // MARK: A shared connection's source

    @Test func theSourceSubscriptionIsDisposedExactlyOnceWhicheverComesFirst() {
        // Attached, then released: the release disposes it.
        var attachedFirst = BroadcastState()
        #expect(attachedFirst.attachUpstream() == true)
        #expect(attachedFirst.releaseUpstream() == true)
        #expect(attachedFirst.releaseUpstream() == false)

        // Released while `subscribe` runs (a synchronous source that terminated, or every
        // observer left from inside it): attaching disposes it.
        var releasedFirst = BroadcastState()
        #expect(releasedFirst.releaseUpstream() == false)
        #expect(releasedFirst.attachUpstream() == false)
        #expect(releasedFirst.upstream == .released)
    }
}
