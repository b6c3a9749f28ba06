@testable import Streams
import Testing

/// `SwitchState`, the rules of `flatMapLatest`/`switchLatest`, driven with no thread.
@Suite struct SwitchStateTests {
    @Test func onlyTheLatestInnerPassesAndAReplacedInnersEndChangesNothing() {
        var state = SwitchState()
        let first = state.innerArrived(running: true)
        let second = state.innerArrived(running: true)
        #expect(!state.isLatest(first))
        #expect(state.isLatest(second))
        let replacedFails = state.innerEnded(first, failed: true)
        #expect(replacedFails == .ignore)
        let outer = state.outerCompleted()
        #expect(!outer)                                     // the latest inner still runs
        let end = state.innerEnded(second, failed: false)
        #expect(end == .complete)
    }

    @Test func theLatestInnerCompletingBeforeTheOuterLetsTheOuterDecide() {
        var state = SwitchState()
        let id = state.innerArrived(running: true)
        let end = state.innerEnded(id, failed: false)
        #expect(end == .continue)
        let outer = state.outerCompleted()
        #expect(outer)
    }

    @Test func theLatestInnerFailingFailsTheWholeEvenWhileTheOuterRuns() {
        var state = SwitchState()
        let id = state.innerArrived(running: true)
        let end = state.innerEnded(id, failed: true)
        #expect(end == .fail)
    }

    @Test func anImmediateInnerIsNeverWaitedForButStillReplacesTheRunningOne() {
        var state = SwitchState()
        let running = state.innerArrived(running: true)
        let immediate = state.innerArrived(running: false)
        #expect(!state.isLatest(running))
        #expect(state.isLatest(immediate))
        let outer = state.outerCompleted()
        #expect(outer)                                      // nothing runs: complete at once
    }
}
