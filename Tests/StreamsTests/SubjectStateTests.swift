@testable import Streams
import Testing

/// `SubjectState`, the rules of every subject, driven with no thread, no element and no
/// observer: each call says what the subject's core must do.
@Suite struct SubjectStateTests {
    @Test func theFirstEmitterDeliversAndLaterOnesQueueUntilTheBacklogIsTaken() {
        var state = SubjectState()
        let a = state.emit(isStop: false)
        #expect(a == .deliver(sequence: 0))
        let b = state.emit(isStop: false)
        #expect(b == .queue(sequence: 1))        // the first is still delivering
        let c = state.emit(isStop: false)
        #expect(c == .queue(sequence: 2))
        let take = state.takeBacklog()
        #expect(take)                              // the deliverer takes both queued events
        let idle = state.takeBacklog()
        #expect(!idle)                             // nothing left: it stops delivering
        #expect(!state.isDraining)
        let d = state.emit(isStop: false)
        #expect(d == .deliver(sequence: 3))
    }

    @Test func aTerminalEventIsTheLastOneAcceptedAndLetsTheObserversGo() {
        var state = SubjectState()
        let entry = BroadcastEntry(firstSequence: 0)
        state.add(entry)
        let stop = state.emit(isStop: true)
        #expect(stop == .deliver(sequence: 0))
        let targets = state.deliveryTargets(isStop: true)
        #expect(targets.count == 1 && targets[0] === entry)
        #expect(state.observers.isEmpty)
        let late = state.emit(isStop: false)
        #expect(late == .ignore)
        #expect(state.subscribe() == .replayEnded)
    }

    @Test func anElementBeingDeliveredKeepsTheObservers() {
        var state = SubjectState()
        state.add(BroadcastEntry(firstSequence: 0))
        _ = state.emit(isStop: false)
        let targets = state.deliveryTargets(isStop: false)
        #expect(targets.count == 1)
        #expect(state.observers.count == 1)
    }

    @Test func aSubscriberReceivesEventsFromTheNextNumberOn() {
        var state = SubjectState()
        #expect(state.subscribe() == .join(firstSequence: 0))
        _ = state.emit(isStop: false)
        _ = state.emit(isStop: false)
        #expect(state.subscribe() == .join(firstSequence: 2))
    }

    @Test func theFinalPairTakesTwoNumbersAndEndsTheSubject() {
        var state = SubjectState()
        _ = state.emit(isStop: false)
        let final = state.emitFinal()
        #expect(final == .queue(sequence: 1))     // the first emitter still delivers
        #expect(state.accepted == 3)
        #expect(state.isStopped)
        let again = state.emitFinal()
        #expect(again == .ignore)
    }

    @Test func aCatchUpIsHandedToADelivererOrDeliveredByItsSubscriber() {
        var state = SubjectState()
        let alone = state.finishCatchUp()
        #expect(alone == .deliverItself)
        _ = state.emit(isStop: false)             // a delivery starts
        let whileDelivering = state.finishCatchUp()
        #expect(whileDelivering == .handOff)
        #expect(state.hasBacklog)                 // the deliverer finishes it before it stops
        let take = state.takeBacklog()
        #expect(take)
    }

    @Test func removingASubscriberReportsWhetherABacklogMayHoldIt() {
        var state = SubjectState()
        let a = BroadcastEntry(firstSequence: 0)
        let b = BroadcastEntry(firstSequence: 0)
        state.add(a)
        state.add(b)
        let quiet = state.remove(a)
        #expect(!quiet)
        #expect(state.observers.count == 1 && state.observers[0] === b)
        _ = state.emit(isStop: false)
        _ = state.emit(isStop: false)             // queued: a backlog
        let busy = state.remove(b)
        #expect(busy)
        #expect(state.observers.isEmpty)
    }

    @Test func aDisposedSubjectAcceptsNothingAndFailsSubscribers() {
        var state = SubjectState()
        state.add(BroadcastEntry(firstSequence: 0))
        _ = state.emit(isStop: false)
        _ = state.emit(isStop: false)
        state.dispose()
        #expect(state.observers.isEmpty)
        #expect(!state.hasBacklog)
        let element = state.emit(isStop: false)
        #expect(element == .ignore)
        let stop = state.emit(isStop: true)
        #expect(stop == .ignore)
        #expect(state.subscribe() == .fail)
    }

    @Test func detachLetsGoOfTheObservers() {
        var state = SubjectState()
        state.add(BroadcastEntry(firstSequence: 0))
        let released = state.detach()
        #expect(released.count == 1)
        #expect(state.observers.isEmpty)
        let open = state.emit(isStop: false)
        #expect(open == .deliver(sequence: 0))   // still open
    }
}
