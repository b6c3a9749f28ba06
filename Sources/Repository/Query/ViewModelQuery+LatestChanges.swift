import Foundation
import ObjectStore
import Streams

extension ObservableConvertibleType {
    /// One live list that follows the latest query this sequence gives (a search field's
    /// predicate, filter chips, a sort the user picks): an initial list, then a `ListChange`
    /// with its change set for every change of the list — a new query's results compared with
    /// the rows shown, by primary key, as well as every commit. Bound to a table through
    /// MVVM's `changeset(section:)` it animates both; nothing reloads after
    /// the first list.
    ///
    ///     queries:               -q("")----------------q("ma")----------------
    ///     observeChanges(on: s): -initial([a,b,m])-----change([m], deletions [0,1])--change(commit)--
    ///
    ///     let rows = search                                         // Driver<String>
    ///         .map { text in text.isEmpty ? todos : try todos.filtered("title CONTAINS[c] %@", text) }
    ///         .observeChanges(on: MainScheduler.instance)
    ///         .map { $0.changeset(section: "todos") }
    ///         .asDriver(onErrorDriveWith: .empty())
    ///
    /// `flatMapLatest { $0.observeChanges(on:) }` would start a new observation per query, whose
    /// first change is an initial list: a full reload on every keystroke. Here the store keeps
    /// the shown list and compares the new results with it (`Results`'
    /// `observeChanges(on:)`): objects that left are deletions, objects that came are insertions,
    /// objects out of their relative order move (a deletion and an insertion); kept objects are
    /// modifications only when a commit changed them. A new query whose results are the rows
    /// shown, in the order shown, none changed, sends nothing, even when its `viewModel` differs
    /// (closures cannot be compared): the rows keep the view models they have until the next
    /// change, which maps every row with that query's `viewModel`.
    ///
    /// Each change set is computed on `scheduler` against the list of the change the observer
    /// got last; queries and commits that come faster than `scheduler` delivers are folded into
    /// one change. Each list is mapped with the `viewModel` of the query whose results it shows
    /// (whatever thread sends the queries). The sequence never
    /// completes (after the queries complete, the last one stays observed); an error of the
    /// queries (a mistake in a predicate, thrown in `map`) ends it after the changes before.
    ///
    /// - Parameter scheduler: Where the changes are delivered (default `MainScheduler.instance`;
    ///   `ImmediateScheduler.instance` or a test scheduler in tests).
    /// - Returns: An endless sequence of changes; dispose it to stop observing.
    /// - Complexity: Each query is evaluated once; a change set costs O(n log n) in the length
    ///   of the lists, and mapping a change builds every view model of the new list.
    public func observeChanges<Model: StoreObject, ViewModel>(on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<ListChange<ViewModel>> where Element == ViewModelQuery<Model, ViewModel> {
        // Each query's `viewModel` travels with its results, so each list is mapped with its
        // own query's, whatever query came since on another thread.
        asObservable()
            .map { query in (query.results(), query.viewModel) }
            .observeLatestSteps(on: scheduler)
            .map { step, transform -> ListChange<ViewModel> in
                switch step {
                case .initial(let results):
                    return .initial(results.map(transform))
                case .update(let results, let difference):
                    return ListChange(items: results.map(transform), difference: difference)
                case .error(let error):
                    throw error
                }
            }
    }
}
