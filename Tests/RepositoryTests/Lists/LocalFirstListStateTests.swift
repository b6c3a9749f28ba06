import Foundation
import Repository
import Testing

/// `LocalFirstList.State`, the rules of `LocalFirstList.states`, driven as a value: no
/// subscription, no scheduler, one event at a time.
@Suite struct LocalFirstListStateTests {
    typealias State = LocalFirstList<Int>.State
    struct Offline: Error {}

    @Test func aStoredListIsLoadedFromTheStoreAndTheSameListFromTheNetworkMakesItFresh() {
        let first = State().reduced(by: .local([1, 2]))
        #expect(first.current == .loaded([1, 2], origin: .local))
        let confirmed = first.reduced(by: .network([2, 1]))
        #expect(confirmed.current == .loaded([2, 1], origin: .network))
        let echo = confirmed.reduced(by: .local([1, 2]))        // the store echoing the network's write
        #expect(echo.current == .loaded([2, 1], origin: .network))
    }

    @Test func anEmptyStoreIsAnEmptyListTheChainFiltersOut() {
        let state = State().reduced(by: .local([]))
        #expect(state.current == .loaded([], origin: .local))
        #expect(state.current.isEmpty)
        #expect(!State().current.isEmpty)
    }

    @Test func aNetworkFailureAfterDataIsStaleAndTheListGoesOn() {
        let failed = State().reduced(by: .local([1])).reduced(by: .networkFailed(Offline()))
        #expect(failed.current == .stale([1], error: Offline()))
        #expect(failed.reduced(by: .local([1, 2])).current == .loaded([1, 2], origin: .local))
        #expect(failed.reduced(by: .local([1])).current == .stale([1], error: Offline()))
    }

    @Test func aFailureBeforeTheStoreAnsweredWaitsForIt() {
        let held = State().reduced(by: .networkFailed(Offline()))
        #expect(held.current == .loading)
        // Stored data wins: the failure makes it stale.
        #expect(held.reduced(by: .local([7])).current == .stale([7], error: Offline()))
        // Nothing stored: the failure goes through.
        #expect(held.reduced(by: .local([])).current == .failed(Offline()))
    }

    @Test func aFailureWithAnEmptyStoreFailsAndNothingFollowsIt() {
        let failed = State().reduced(by: .local([])).reduced(by: .networkFailed(Offline()))
        #expect(failed.current == .failed(Offline()))
        #expect(failed.reduced(by: .network([1])).current == .failed(Offline()))
        #expect(failed.reduced(by: .local([1])).current == .failed(Offline()))
    }

    @Test func statesCompareTheirListsInAnyOrder() {
        #expect(LoadState.loaded([1, 2], origin: .local).isSame(as: .loaded([2, 1], origin: .local)))
        #expect(!LoadState.loaded([1, 2], origin: .local).isSame(as: .loaded([2, 1], origin: .network)))
        #expect(!LoadState.stale([1], error: Offline()).isSame(as: .loaded([1], origin: .local)))
        #expect(LoadState<Int>.failed(Offline()).isSame(as: .failed(Offline())))
        #expect(LoadState.stale([3, 4], error: Offline()).list == [3, 4])
        #expect(LoadState<Int>.failed(Offline()).list == nil && LoadState<Int>.failed(Offline()).error is Offline)
        #expect(LoadState.loaded([1, 2], origin: .network).description == "loaded(2, network)")
    }

    @Test func sameElementsCountsRepeats() {
        #expect(LocalFirstList<Int>.sameElements([1, 2, 2], [2, 1, 2]))
        #expect(!LocalFirstList<Int>.sameElements([1, 1, 2], [1, 2, 2]))
        #expect(!LocalFirstList<Int>.sameElements([1], [1, 1]))
    }
}
