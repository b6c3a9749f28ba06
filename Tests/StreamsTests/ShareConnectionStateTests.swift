@testable import Streams
import Testing

/// The rules of one connection of `share(replay: 0 | 1, scope: .whileConnected)` as a pure
/// value: who delivers, in which order, how a new observer catches up, and when the source's
/// subscription is disposed. No threads, no observers.
@Suite struct ShareConnectionStateTests {
    @Test func theFirstSenderDeliversAndEveryEventGetsTheNextNumber() {
        var state = ShareConnectionState()
        #expect(state.accept(terminal: false) == .deliver(sequence: 0))
        #expect(state.draining)
        #expect(state.drainerLooksAgain() == false)
        #expect(!state.draining)
        #expect(state.accept(terminal: false) == .deliver(sequence: 1))
        #expect(state.accepted == 2)
    }

    @Test func eventsSentWhileADrainerIsAtWorkAreQueuedForIt() {
        var state = ShareConnectionState()
        #expect(state.accept(terminal: false) == .deliver(sequence: 0))
        // Re-entrant (or concurrent) sends while element 0 is delivered.
        #expect(state.accept(terminal: false) == .queue(sequence: 1))
        #expect(state.accept(terminal: true) == .queue(sequence: 2))
        // The drainer takes the backlog, delivers it, and only then stops.
        #expect(state.drainerLooksAgain() == true)
        #expect(state.draining)
        #expect(state.drainerLooksAgain() == false)
        #expect(!state.draining)
    }

    @Test func aConnectionIsOverOnceItsTerminalEventIsAcceptedNotWhenItIsDelivered() {
        var state = ShareConnectionState()
        #expect(state.accept(terminal: true) == .deliver(sequence: 0))
        #expect(state.isOver)
        // Still delivering the terminal event: anything later reaches nobody.
        #expect(state.accept(terminal: false) == .drop)
        #expect(state.accept(terminal: true) == .drop)
        #expect(state.disconnect() == false)
        #expect(state.accepted == 1)
    }

    @Test func theLastObserverLeavingDropsLaterEvents() {
        var state = ShareConnectionState()
        #expect(state.disconnect() == true)
        #expect(state.disconnect() == false)
        #expect(state.accept(terminal: false) == .drop)
        #expect(state.accept(terminal: true) == .drop)
    }

    @Test func aNewObserverGoesLiveOnlyWithAnEmptyCatchUp() {
        var state = ShareConnectionState()
        #expect(state.catchUp(hasCatchUp: false) == .goLive)
        // Nobody delivers: the observer delivers what waits itself, then looks again.
        #expect(state.catchUp(hasCatchUp: true) == .deliverBatch)
        #expect(!state.hasBacklog)
        // A drainer is at work: the catch-up becomes its backlog, so it does not stop before
        // delivering it.
        _ = state.accept(terminal: false)
        #expect(state.catchUp(hasCatchUp: true) == .handOver)
        #expect(state.hasBacklog)
        #expect(state.drainerLooksAgain() == true)
        #expect(state.drainerLooksAgain() == false)
    }

    @Test func theSourceSubscriptionIsDisposedExactlyOnceWhicheverComesFirst() {
        // Attached, then released: the release disposes it.
        var attachedFirst = ShareConnectionState()
        #expect(attachedFirst.attachUpstream() == true)
        #expect(attachedFirst.releaseUpstream() == true)
        #expect(attachedFirst.releaseUpstream() == false)

        // Released while `subscribe` runs (a synchronous source that terminated, or every
        // observer left from inside it): attaching disposes it.
        var releasedFirst = ShareConnectionState()
        #expect(releasedFirst.releaseUpstream() == false)
        #expect(releasedFirst.attachUpstream() == false)
        #expect(releasedFirst.upstream == .released)
    }
}
