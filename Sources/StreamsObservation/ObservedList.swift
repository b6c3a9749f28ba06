import Foundation
import Observation
import ObjectStore
import Repository
import Streams

/// A live list from the store as main-actor observable state: the elements a SwiftUI `List`
/// shows, the last change set (for code that animates it), and the error that ended it.
///
///     let pizzas = ObservedList(ViewModelQuery(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "name")],
///                                     viewModel: PizzaRow.init))
///     List(pizzas.elements) { Text($0.name) }                           // SwiftUI
///
///     // a query that follows a search field (see ``ObservedInput``)
///     let found = ObservedList(search.driver.map { text in pizzas.where { $0.name.contains(text, caseInsensitive: true) } })
///
///     commits:     ----c1------c2--
///     elements:    [a]-[a,b]---[b]-
///     lastChange:  i---u(+1)---u(-0)-      (i: the initial list)
///
/// It follows commits made on any thread (each delivered on the main actor) and, for a
/// changing query, each new query, compared with the rows shown by primary key (deletions,
/// insertions, moves; modifications only when a commit changed an object): Repository's
/// `observeChanges(on:)` on the sequence of queries, which a table's binding uses too. A reader of ``elements`` is invalidated
/// once per change of the list; a commit that does not touch the list sends nothing. The
/// observation ends when the state is released.
///
/// (Observation is written out here rather than by `@Observable`: the macro spells each
/// property's key path where it is read and written, and the key path of a generic class is
/// built anew at run time every time — over a third of an element's time, profiled. The key
/// paths are made once, per state.)
@MainActor
public final class ObservedList<Element>: Observation.Observable {
    /// The list now (empty until the first list arrives).
    public private(set) var elements: [Element] {
        get {
            registrar.access(self, keyPath: paths.elements)
            return stored.elements
        }
        set {
            registrar.withMutation(of: self, keyPath: paths.elements) { stored.elements = newValue }
        }
    }
    /// The change that made ``elements``: `isInitial` for the first list, then the indices a
    /// commit or a new query deleted, inserted and modified (`nil` before the first list).
    public private(set) var lastChange: ListChange<Element>? {
        get {
            registrar.access(self, keyPath: paths.lastChange)
            return stored.lastChange
        }
        set {
            registrar.withMutation(of: self, keyPath: paths.lastChange) { stored.lastChange = newValue }
        }
    }
    /// The error that ended the observation (a damaged store file, a mistake in a query's
    /// predicate), or `nil`; the last list stays in ``elements``.
    public private(set) var error: Error? {
        get {
            registrar.access(self, keyPath: paths.error)
            return stored.error
        }
        set {
            registrar.withMutation(of: self, keyPath: paths.error) { stored.error = newValue }
        }
    }

    private var stored: (elements: [Element], lastChange: ListChange<Element>?, error: Error?) = ([], nil, nil)
    private let paths = (
        elements: \ObservedList<Element>.elements,
        lastChange: \ObservedList<Element>.lastChange,
        error: \ObservedList<Element>.error
    )
    private let registrar = ObservationRegistrar()
    private let bag = DisposeBag()

    /// Creates the state of a stream of list changes (e.g. `query.observeChanges(on:)`).
    ///
    /// - Parameter changes: An initial list, then each change; delivered on the main actor
    ///   whatever thread it comes from.
    public init(changes: RxObservable<ListChange<Element>>) {
        changes.subscribe(MainActorUpdate(self) { state, event in
            switch event {
            case .next(let change):
                state.elements = change.items
                state.lastChange = change
            case .error(let error):
                state.error = error
            case .completed:
                break
            }
        }).disposed(by: bag)
    }

    /// Creates the state of a query: what it reads now, then its list after every commit that
    /// changes it.
    ///
    /// - Parameter query: The query.
    public convenience init<Model: StoreObject>(_ query: ViewModelQuery<Model, Element>) {
        self.init(changes: query.observeChanges(on: MainScheduler.instance))
    }

    /// Creates the state of a query that changes (a search text, filter chips, a sort): one
    /// list that follows the latest query and every commit.
    ///
    ///     queries:   -q("")----------q("ma")--------
    ///     elements:  -[a,b,m]--------[m]------------
    ///
    /// - Parameter queries: The queries, e.g. an ``ObservedInput``'s driver mapped to a query.
    public convenience init<Queries: ObservableConvertibleType, Model: StoreObject>(_ queries: Queries) where Queries.Element == ViewModelQuery<Model, Element> {
        self.init(changes: queries.observeChanges(on: MainScheduler.instance))
    }
}
