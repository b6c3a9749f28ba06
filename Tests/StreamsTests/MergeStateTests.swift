@testable import Streams
import Testing

/// `MergeState`, the rules of `merge`/`flatMap`/`concatMap`, driven with no thread and no
/// subscription: each call says what the sink must do.
@Suite struct MergeStateTests {
    private func started(_ after: MergeState<String>.AfterInner) -> String? {
        if case .start(let inner) = after { return inner }
        return nil
    }

    private func completes(_ after: MergeState<String>.AfterInner) -> Bool {
        if case .complete = after { return true }
        return false
    }

    @Test func underTheLimitEveryInnerStartsAndTheLastOneToFinishCompletes() {
        var state = MergeState<String>(maxConcurrent: .max)
        let r1 = state.innerArrived("a")
        #expect(r1)
        let r2 = state.innerArrived("b")
        #expect(r2)
        #expect(state.active == 2)
        let r3 = state.outerCompleted()
        #expect(!r3)                  // two still run
        let r4 = state.innerCompleted()
        #expect(!completes(r4))
        let r5 = state.innerCompleted()
        #expect(completes(r5))
    }

    @Test func atTheLimitInnersWaitTheirTurnInArrivalOrder() {
        var state = MergeState<String>(maxConcurrent: 1)
        let r6 = state.innerArrived("a")
        #expect(r6)
        let r7 = state.innerArrived("b")
        #expect(!r7)
        let r8 = state.innerArrived("c")
        #expect(!r8)
        #expect(state.waitingCount == 2)
        let r9 = state.outerCompleted()
        #expect(!r9)
        let r10 = state.innerCompleted()
        #expect(started(r10) == "b")   // b takes a's place
        #expect(state.active == 1)
        let r11 = state.innerCompleted()
        #expect(started(r11) == "c")
        let r12 = state.innerCompleted()
        #expect(completes(r12))
    }

    @Test func anImmediateInnerIsDeliveredAtOnceUnderTheLimitAndWaitsAtIt() {
        var state = MergeState<String>(maxConcurrent: 1)
        let r13 = state.immediateInnerArrived("just 1")
        #expect(r13)   // nothing runs: delivered, never counted
        #expect(state.active == 0)
        let r14 = state.innerArrived("a")
        #expect(r14)
        let r15 = state.immediateInnerArrived("just 2")
        #expect(!r15)   // queued behind a, subscribed in its turn
        let r16 = state.innerCompleted()
        #expect(started(r16) == "just 2")
        let r17 = state.outerCompleted()
        #expect(!r17)
        let r18 = state.innerCompleted()
        #expect(completes(r18))
    }

    @Test func theOuterCompletingWithNothingRunningCompletesAtOnce() {
        var state = MergeState<String>(maxConcurrent: 2)
        let r19 = state.outerCompleted()
        #expect(r19)
        var running = MergeState<String>(maxConcurrent: 2)
        let r20 = running.innerArrived("a")
        #expect(r20)
        let r21 = running.innerCompleted()
        #expect(!completes(r21))     // the outer is still open
        let r22 = running.outerCompleted()
        #expect(r22)
    }
}
