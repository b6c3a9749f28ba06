@testable import Streams
import Testing

/// `CombineLatestState`, the rules of `combineLatest`, driven with no thread and no
/// subscription: each call says what the sink must do.
@Suite struct CombineLatestStateTests {
    @Test func emitsOnlyOnceEverySourceHasAValueThenOnEveryElement() {
        var state = CombineLatestState(count: 3)
        var sources = Array(repeating: CombineLatestState.Source(), count: 3)
        let a = state.next(&sources[0])
        #expect(a == .wait)
        let b = state.next(&sources[0])
        #expect(b == .wait)               // a second element of the same source: still waiting
        #expect(state.valueCount == 1)
        let c = state.next(&sources[2])
        #expect(c == .wait)
        let d = state.next(&sources[1])
        #expect(d == .emit)               // the last one to send makes the first combination
        let e = state.next(&sources[0])
        #expect(e == .emit)
        let everyOneHasAValue = sources.allSatisfy { $0.hasValue }
        #expect(everyOneHasAValue)
    }

    @Test func completesWhenEverySourceHasCompletedAndDetachesTheOthers() {
        var state = CombineLatestState(count: 2)
        var sources = Array(repeating: CombineLatestState.Source(), count: 2)
        _ = state.next(&sources[0])
        _ = state.next(&sources[1])
        let a = state.completed(&sources[0])
        #expect(a == .detach)
        let again = state.completed(&sources[0])
        #expect(again == .ignore)         // a second completion of the same source counts once
        #expect(state.doneCount == 1)
        let b = state.next(&sources[1])
        #expect(b == .emit)               // the completed source's latest still combines
        let c = state.completed(&sources[1])
        #expect(c == .complete)
        #expect(state.isStopped)
        let late = state.next(&sources[1])
        #expect(late == .ignore)
    }

    @Test func completesWhenAnElementArrivesAndTheOnlyOtherSourcesCompletedEmpty() {
        var state = CombineLatestState(count: 3)
        var sources = Array(repeating: CombineLatestState.Source(), count: 3)
        _ = state.next(&sources[0])
        let a = state.completed(&sources[0])
        #expect(a == .detach)
        let b = state.completed(&sources[1])     // completed without an element
        #expect(b == .detach)
        let c = state.next(&sources[2])          // can never be combined with source 1
        #expect(c == .complete)
        #expect(state.isStopped)
    }

    @Test func anElementWaitsWhileAnotherEmptySourceStillRuns() {
        var state = CombineLatestState(count: 3)
        var sources = Array(repeating: CombineLatestState.Source(), count: 3)
        let a = state.completed(&sources[0])     // completed empty
        #expect(a == .detach)
        let b = state.next(&sources[1])          // source 2 runs: not yet hopeless…
        #expect(b == .wait)
        let c = state.completed(&sources[2])     // …until it completes (empty too)
        #expect(c == .detach)
        let d = state.next(&sources[1])
        #expect(d == .complete)
    }

    @Test func stopEndsTheSequenceOnce() {
        var state = CombineLatestState(count: 2)
        var sources = Array(repeating: CombineLatestState.Source(), count: 2)
        let first = state.stop()
        #expect(first)
        let second = state.stop()
        #expect(!second)
        let a = state.next(&sources[0])
        #expect(a == .ignore)
        let b = state.completed(&sources[0])
        #expect(b == .ignore)
        #expect(!sources[0].hasValue && !sources[0].isDone)
    }
}
