import Foundation
import Repository
import Testing

/// `Manager.State`, the status rules of `Manager.all()`, driven as a value: no subscription,
/// no scheduler, one event at a time.
@Suite struct ManagerStateTests {
    typealias State = Manager<Int>.State
    struct Offline: Error {}

    @Test func aStoredListIsLoadedFromTheStoreAndTheSameListFromTheNetworkMakesItFresh() {
        var state = State()
        let first = state.reduce(.local([1, 2]))
        #expect(first.list == [1, 2])
        #expect(first.statuses == [.loaded(origin: .local)])
        let confirmed = state.reduce(.network([2, 1]))
        #expect(confirmed.statuses == [.loaded(origin: .network)])
        let echo = state.reduce(.local([2, 1]))             // the store echoing the network's write
        #expect(echo.statuses.isEmpty)
        #expect(echo.failure == nil)
    }

    @Test func anEmptyListChangesNoStatus() {
        var state = State()
        let step = state.reduce(.local([]))
        #expect(step.list == nil)
        #expect(step.statuses.isEmpty)
    }

    @Test func aNetworkFailureAfterDataIsStaleAndTheListGoesOn() {
        var state = State()
        _ = state.reduce(.local([1]))
        let failed = state.reduce(.networkFailed(Offline()))
        #expect(failed.statuses == [.stale(Offline())])
        #expect(failed.failure == nil)
        #expect(state.reduce(.local([1, 2])).statuses == [.loaded(origin: .local)])
    }

    @Test func aFailureBeforeTheStoreAnsweredWaitsForIt() {
        var held = State()
        let early = held.reduce(.networkFailed(Offline()))
        #expect(early.statuses.isEmpty && early.failure == nil)
        // Stored data wins: the failure becomes stale, after the list's own status.
        #expect(held.reduce(.local([7])).statuses == [.loaded(origin: .local), .stale(Offline())])

        var empty = State()
        _ = empty.reduce(.networkFailed(Offline()))
        let through = empty.reduce(.local([]))               // nothing stored: the failure goes through
        #expect(through.failure is Offline)
        #expect(through.statuses == [.failed(Offline())])
    }

    @Test func aFailureWithAnEmptyStoreEndsTheListAndNothingFollowsIt() {
        var state = State()
        _ = state.reduce(.local([]))
        let failed = state.reduce(.networkFailed(Offline()))
        #expect(failed.failure is Offline)
        #expect(failed.statuses == [.failed(Offline())])
        let after = state.reduce(.network([1]))
        #expect(after.list == nil && after.statuses.isEmpty && after.failure == nil)
    }

    @Test func sameElementsCountsRepeats() {
        #expect(Manager<Int>.sameElements([1, 2, 2], [2, 1, 2]))
        #expect(!Manager<Int>.sameElements([1, 1, 2], [1, 2, 2]))
        #expect(!Manager<Int>.sameElements([1], [1, 1]))
    }
}
