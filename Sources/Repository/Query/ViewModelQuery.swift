import Foundation
import ObjectStore
import Streams

/// Reads view models from the local store: once (`Single`) or live (`Observable`).
///
///     let pizzas = ViewModelQuery<Pizza, PizzaViewModel>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "name")],
///                                                        viewModel: PizzaViewModel.init)
///     pizzas.all()                                        // Single: what is stored now
///     pizzas.observeAll(on: MainScheduler.instance)        // now, then after every change
///     pizzas.observeChanges(on: MainScheduler.instance)    // the same, with each commit's change set
///     try pizzas.filtered("ANY categories.id IN %@", [1, 2]).all()
///     search.map { try pizzas.filtered("name CONTAINS[c] %@", $0) }
///         .observeChanges(on: MainScheduler.instance)  // one list as the query changes
///
/// Every read is sorted the way the list shows it (the `sortedBy` descriptors).
///
/// The Pizzaiolo app and the RxSwift era call this type `Query`, and ``Query`` still names it.
/// SwiftData also declares a `Query` (its `@Query` property wrapper), so a file that imports
/// SwiftData beside this module writes `ViewModelQuery`, which names one type only.
public struct ViewModelQuery<Model: StoreObject, ViewModel>: @unchecked Sendable {
    /// The store read from.
    public let store: Store
    private let sort: [ObjectStore.SortDescriptor]
    private let predicates: [StorePredicate]
    /// Builds a view model from a stored model (for the operators of the `MVVM` module).
    package let viewModel: (Model) -> ViewModel

    /// Creates a query over every object of `Model`.
    ///
    /// - Parameters:
    ///   - store: The store read from.
    ///   - sortedBy: The order of the list (insertion order when empty).
    ///   - viewModel: Builds a view model from a stored model.
    public init(store: Store, sortedBy: [ObjectStore.SortDescriptor] = [], viewModel: @escaping (Model) -> ViewModel) {
        self.init(store: store, sort: sortedBy, predicates: [], viewModel: viewModel)
    }

    private init(store: Store, sort: [ObjectStore.SortDescriptor], predicates: [StorePredicate], viewModel: @escaping (Model) -> ViewModel) {
        self.store = store
        self.sort = sort
        self.predicates = predicates
        self.viewModel = viewModel
    }

    /// The same query restricted by a predicate in the store's query language.
    ///
    /// - Parameter predicate: E.g. `try StorePredicate(format: "ANY categories.id IN %@", ids)`.
    /// - Returns: The narrower query.
    public func filtered(_ predicate: StorePredicate) -> ViewModelQuery {
        ViewModelQuery(store: store, sort: sort, predicates: predicates + [predicate], viewModel: viewModel)
    }

    /// The same query restricted by a predicate format, e.g. `"ANY categories.id IN %@"`.
    ///
    /// - Parameters:
    ///   - format: The predicate in the store's query language.
    ///   - arguments: Values for its `%@` placeholders.
    /// - Returns: The narrower query.
    /// - Throws: The store's query error, naming the mistake and its column.
    public func filtered(_ format: String, _ arguments: Any...) throws -> ViewModelQuery {
        filtered(try StorePredicate(format: format, arguments: arguments))
    }

    /// The same query restricted by a typed predicate, built from the model's key paths (no
    /// query text to get wrong, so nothing to throw: it fits a `Driver`'s `map`).
    ///
    ///     pizzas.where { $0.name.contains(text, caseInsensitive: true) }
    ///
    /// - Parameter build: Builds the predicate.
    /// - Returns: The narrower query.
    public func `where`(_ build: (StoreQuery<Model>) -> StorePredicate) -> ViewModelQuery {
        filtered(build(StoreQuery()))
    }

    /// The same query in another order (replacing the `sortedBy` descriptors), for a list
    /// whose sort the user picks.
    ///
    ///     pizzas.sorted(by: [ObjectStore.SortDescriptor(keyPath: "price", ascending: false)])
    ///
    /// - Parameter descriptors: The new order, the first key first (insertion order when empty).
    /// - Returns: The query in that order.
    public func sorted(by descriptors: [ObjectStore.SortDescriptor]) -> ViewModelQuery {
        ViewModelQuery(store: store, sort: descriptors, predicates: predicates, viewModel: viewModel)
    }

    /// The stored objects as view models, read once at subscription.
    ///
    ///     all(): ([vm]|)
    ///
    /// - Returns: A single of the view models, in list order.
    public func all() -> Single<[ViewModel]> {
        Single.deferred { .just(self.results().toArray().map(self.viewModel)) }
    }

    /// The stored objects as view models: now, then again after every commit that changes them.
    ///
    ///     observeAll(on: s): -[vm]----[vm']--[vm'']--…
    ///
    /// - Parameter scheduler: Where the arrays are delivered.
    /// - Returns: An endless sequence; dispose it to stop observing.
    public func observeAll(on scheduler: ImmediateSchedulerType) -> Observable<[ViewModel]> {
        let viewModel = self.viewModel
        return results().asObservable(on: scheduler).map { $0.map(viewModel) }
    }

    /// The stored objects as view models with the change set of each commit that changes them,
    /// as the store computed it: an initial list, then one ``ListChange`` per such commit. Bind
    /// it to a table to animate exactly the rows the commit touched, with no diff in the UI.
    ///
    ///     observeChanges(on: s): -initial([vm])----change([vm'], deletions, insertions, modifications)--…
    ///
    /// - Parameter scheduler: Where the changes are delivered.
    /// - Returns: An endless sequence; dispose it to stop observing.
    public func observeChanges(on scheduler: ImmediateSchedulerType) -> Observable<ListChange<ViewModel>> {
        let viewModel = self.viewModel
        return results().observeSteps(on: scheduler).map { step in
            switch step {
            case .initial(let results):
                return .initial(results.toArray().map(viewModel))
            case .update(let results, let difference):
                return ListChange(items: results.toArray().map(viewModel), difference: difference)
            case .error(let error):
                throw error
            }
        }
    }

    /// The store's live results this query reads (for the operators of the `MVVM` module).
    package func results() -> Results<Model> {
        var results = store.objects(Model.self)
        for predicate in predicates { results = results.filter(predicate) }
        if !sort.isEmpty { results = results.sorted(by: sort) }
        return results
    }
}

/// The RxSwift-era name of ``ViewModelQuery``: `Query<Pizza, PizzaViewModel>(store:…)` compiles
/// as before. Beside SwiftData, whose `@Query` has the same name, write ``ViewModelQuery``.
public typealias Query<Model: StoreObject, ViewModel> = ViewModelQuery<Model, ViewModel>
