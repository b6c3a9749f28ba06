@testable import Streams
import Testing

/// `ZipState`, the rules of `zip`, driven with no thread and no subscription: each call says
/// what the sink must do.
@Suite struct ZipStateTests {
    /// Claims one element of every source, as a sink does after `.emit`.
    private func claimAll(_ state: inout ZipState, _ sources: inout [ZipState.Source]) {
        for index in sources.indices { state.claim(&sources[index]) }
    }

    @Test func emitsWhenEverySourceHasAnUnclaimedElement() {
        var state = ZipState(count: 2, completesWhenStarved: false)
        var sources = Array(repeating: ZipState.Source(), count: 2)
        let a = state.next(&sources[0])
        #expect(a == .wait)
        let b = state.next(&sources[0])
        #expect(b == .wait)                       // queued behind the first
        #expect(sources[0].available == 2)
        let c = state.next(&sources[1])
        #expect(c == .emit)
        claimAll(&state, &sources)
        #expect(sources[0].available == 1)        // the second element of source 0 still waits
        #expect(sources[1].available == 0)
        #expect(state.nonEmptyCount == 1)
        let d = state.next(&sources[1])
        #expect(d == .emit)                       // pairs with that waiting element
        claimAll(&state, &sources)
        #expect(state.nonEmptyCount == 0)
    }

    @Test func completesOnlyWhenEverySourceHasCompleted() {
        var state = ZipState(count: 2, completesWhenStarved: false)
        var sources = Array(repeating: ZipState.Source(), count: 2)
        let a = state.completed(&sources[0])
        #expect(a == .detach)
        let again = state.completed(&sources[0])
        #expect(again == .ignore)
        let b = state.next(&sources[1])           // can never be matched, but is queued
        #expect(b == .wait)
        let c = state.completed(&sources[1])
        #expect(c == .complete)
        let late = state.next(&sources[1])
        #expect(late == .ignore)
    }

    @Test func completesWhenStarvedIfAsked() {
        var state = ZipState(count: 3, completesWhenStarved: true)
        var sources = Array(repeating: ZipState.Source(), count: 3)
        let a = state.next(&sources[0])
        #expect(a == .wait)                       // nobody has completed
        _ = state.completed(&sources[1])
        let b = state.next(&sources[0])
        #expect(b == .wait)                       // one other source still runs
        _ = state.completed(&sources[2])
        let c = state.next(&sources[0])
        #expect(c == .complete)                   // every other source completed
        #expect(state.isStopped)
    }

    @Test func aStarvedElementThatCompletesACombinationStillEmits() {
        var state = ZipState(count: 2, completesWhenStarved: true)
        var sources = Array(repeating: ZipState.Source(), count: 2)
        _ = state.next(&sources[0])
        _ = state.completed(&sources[0])           // completed with an element waiting
        let a = state.next(&sources[1])
        #expect(a == .emit)
        claimAll(&state, &sources)
        let b = state.next(&sources[1])
        #expect(b == .complete)                   // now nothing of source 0 is left
    }

    @Test func stopEndsTheSequenceOnce() {
        var state = ZipState(count: 2, completesWhenStarved: false)
        var sources = Array(repeating: ZipState.Source(), count: 2)
        let first = state.stop()
        #expect(first)
        let second = state.stop()
        #expect(!second)
        let a = state.next(&sources[0])
        #expect(a == .ignore)
        #expect(sources[0].available == 0)
    }
}
