import Foundation
import Repository
import Testing
import TestSupport

/// The paging rules as a value: no subscription, no thread.
@Suite struct PagedListStateTests {
    typealias State = PagedList<Int>.State

    static let offline = TestError.code(503)

    @Test func aNewListAsksForPageOneAndShowsTheStoreAtOnce() {
        let start = State()
        #expect(start.request?.page == 1)
        #expect(start.loadState == .loading)
        let stored = start.reduced(by: .local(Array(1...40)))
        #expect(stored.loadState == .loaded(Array(1...40), origin: .local))
        #expect(stored.isRefreshing)
        #expect(stored.request == start.request)
    }

    @Test func oneNextPageAtATime() {
        var state = State().reduced(by: .local([]))
        #expect(state.reduced(by: .loadNextPage).request == state.request)   // page 1 still loading
        state = state.reduced(by: .local(Array(1...20))).reduced(by: .pageLoaded(1, Page(Array(1...20), isLast: false)))
        #expect(state.request == nil && state.loadingPage == nil && state.nextPage == 2)
        let asked = state.reduced(by: .loadNextPage)
        #expect(asked.request?.page == 2)
        #expect(asked.isLoadingNextPage && !asked.isRefreshing)
        #expect(asked.reduced(by: .loadNextPage).request == asked.request)
    }

    @Test func aStoredPageWaitsForTheStoreBeforeTheNextOne() {
        let asked = State().reduced(by: .local(Array(1...20))).reduced(by: .pageLoaded(1, Page(Array(1...20), isLast: false)))
            .reduced(by: .loadNextPage)
        // Page 2 is stored, but the store's new list has not arrived: a trigger does nothing.
        let stored = asked.reduced(by: .pageLoaded(2, Page(Array(21...40), isLast: false)))
        #expect(stored.request == nil && stored.loadingPage == 2)
        #expect(stored.reduced(by: .loadNextPage).request == nil)
        let shown = stored.reduced(by: .local(Array(1...40)))
        #expect(shown.loadingPage == nil)
        #expect(shown.reduced(by: .loadNextPage).request?.page == 3)
    }

    @Test func anEmptyStoreShowsLoadingUntilThePageIsInTheList() {
        let stored = State().reduced(by: .local([])).reduced(by: .pageLoaded(1, Page([1, 2], isLast: true)))
        #expect(stored.loadState == .loading)
        #expect(stored.reduced(by: .local([1, 2])).loadState == .loaded([1, 2], origin: .network))
    }

    @Test func theEndStopsRequestsUntilARefresh() {
        let end = State().reduced(by: .local([1, 2])).reduced(by: .pageLoaded(1, Page([1, 2], pageSize: 20)))
        #expect(end.isEndReached && end.nextPage == nil)
        #expect(end.reduced(by: .loadNextPage).request == nil)
        let refreshed = end.reduced(by: .refresh)
        #expect(refreshed.request?.page == 1)
        #expect(refreshed.reduced(by: .pageLoaded(1, Page([1, 2, 3], isLast: false))).isEndReached == false)
    }

    @Test func aRefreshReplacesAPageOnItsWayAndIgnoresItsAnswer() {
        let loadingTwo = State().reduced(by: .local(Array(1...20))).reduced(by: .pageLoaded(1, Page(Array(1...20), isLast: false)))
            .reduced(by: .loadNextPage)
        let refreshing = loadingTwo.reduced(by: .refresh)
        #expect(refreshing.request?.page == 1)
        #expect(refreshing.request != State().request)        // a new request, not page 1's first
        let late = refreshing.reduced(by: .pageLoaded(2, Page(Array(21...40), isLast: true)))
        #expect(late.request == refreshing.request && !late.isEndReached)
    }

    @Test func aFailedPageKeepsTheRowsAndTheNextTriggerRetriesIt() {
        let loadingTwo = State().reduced(by: .local(Array(1...20))).reduced(by: .pageLoaded(1, Page(Array(1...20), isLast: false)))
            .reduced(by: .loadNextPage)
        let failed = loadingTwo.reduced(by: .pageFailed(2, Self.offline))
        #expect(failed.loadState == .stale(Array(1...20), error: Self.offline))
        #expect(failed.failure?.page == 2)
        let retry = failed.reduced(by: .loadNextPage)
        #expect(retry.request?.page == 2 && retry.request != loadingTwo.request)
        #expect(retry.failure == nil)
        #expect(retry.loadState == .loaded(Array(1...20), origin: .network))
    }

    @Test func aFirstPageFailingWithNothingStoredIsFailedThenRetried() {
        let failed = State().reduced(by: .local([])).reduced(by: .pageFailed(1, Self.offline))
        #expect(failed.loadState == .failed(Self.offline))
        let retry = failed.reduced(by: .loadNextPage)
        #expect(retry.request?.page == 1 && retry.loadState == .loading)
    }

    @Test func theStoreAnsweringLateStillShowsAFailure() {
        let failed = State().reduced(by: .pageFailed(1, Self.offline))
        #expect(failed.loadState == .loading)
        #expect(failed.reduced(by: .local([7])).loadState == .stale([7], error: Self.offline))
    }

    @Test func pagesKnowTheirEnd() {
        #expect(Page([1, 2], pageSize: 2).isLast == false)
        #expect(Page([1], pageSize: 2).isLast)
        #expect(Page([Int](), pageSize: 2).isLast)
    }
}
