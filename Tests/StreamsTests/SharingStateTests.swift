@testable import Streams
import Testing

/// The rules of a shared source as a pure value: no threads, no observers.
@Suite struct SharingStateTests {
    @Test func theFirstObserverConnectsAndTheOthersJoin() {
        var state = SharingState(keepsSubject: false)
        #expect(state.subscribe() == .connect(generation: 1))
        #expect(state.subscribe() == .join(generation: 1))
        #expect(state.subscribe() == .join(generation: 1))
        #expect(state.observers == 3)
        #expect(state.live == 1)
    }

    @Test func theLastObserverToLeaveDisconnects() {
        var state = SharingState(keepsSubject: false)
        _ = state.subscribe()
        _ = state.subscribe()
        #expect(state.unsubscribe(generation: 1) == false)
        #expect(state.unsubscribe(generation: 1) == true)
        #expect(state.live == nil)
        #expect(state.subscribe() == .connect(generation: 2))
    }

    @Test func anEndedConnectionIsOverForTheNextObserver() {
        for keepsSubject in [false, true] {
            var state = SharingState(keepsSubject: keepsSubject)
            _ = state.subscribe()
            #expect(state.end(generation: 1, terminated: false) == true)
            // Disposed, not terminated: a kept subject has not finished, so connect again.
            #expect(state.subscribe() == .connect(generation: 2))
        }
    }

    @Test func aTerminatedSourceIsReplayedOnlyWhenTheSubjectIsKept() {
        var kept = SharingState(keepsSubject: true)
        _ = kept.subscribe()
        #expect(kept.end(generation: 1, terminated: true) == true)
        #expect(kept.finished)
        #expect(kept.subscribe() == .replayFinished)
        #expect(kept.live == nil)

        var perConnection = SharingState(keepsSubject: false)
        _ = perConnection.subscribe()
        #expect(perConnection.end(generation: 1, terminated: true) == true)
        #expect(perConnection.subscribe() == .connect(generation: 2))
    }

    @Test func lateCallsAboutAnOldConnectionAreIgnored() {
        var state = SharingState(keepsSubject: false)
        _ = state.subscribe()
        _ = state.subscribe()
        #expect(state.end(generation: 1, terminated: true) == true)
        #expect(state.subscribe() == .connect(generation: 2))
        // The two observers of connection 1 leave after it ended: connection 2 stays.
        #expect(state.unsubscribe(generation: 1) == false)
        #expect(state.unsubscribe(generation: 1) == false)
        #expect(state.live == 2)
        #expect(state.observers == 1)
        // A second end of connection 1 (its disposable disposed after its terminal event).
        #expect(state.end(generation: 1, terminated: false) == false)
        #expect(state.live == 2)
    }

    @Test func connectReturnsTheLiveConnectionOrStartsOne() {
        var state = SharingState(keepsSubject: true)
        #expect(state.connect() == (1, true))
        #expect(state.connect() == (1, false))
        #expect(state.subscribe() == .join(generation: 1))
        #expect(state.end(generation: 1, terminated: true) == true)
        // connect() on a finished kept subject still subscribes the source (as RxSwift).
        #expect(state.connect() == (2, true))
    }

    @Test func refCountEndsAConnectionThatConnectStarted() {
        var state = SharingState(keepsSubject: false)
        _ = state.connect()
        #expect(state.subscribe() == .join(generation: 1))
        // The observer counted from zero: it is the last to leave, and disconnects, as
        // RxSwift's refCount does over a connection someone else started.
        #expect(state.unsubscribe(generation: 1) == true)
    }
}
