import Differentiator
import Observation
import Repository
import Streams

/// A Repository list (`LocalFirstList`, `PagedList`) as main-actor
/// observable state: its `LoadState` (a spinner, a stale banner, the error view
/// with Retry), the elements on screen, and the change from the list shown before.
///
///     let menu = ObservedLoadState(pizzas)                  // a LocalFirstList<PizzaRow>
///     switch menu.state { case .loading: ProgressView() … } // SwiftUI
///     List(menu.elements) { … }
///
///     states:     L----loaded([a],local)----loaded([a,b],network)--
///     elements:   []---[a]------------------[a,b]-----------------
///     lastChange: nil--i([a])---------------u(insertions [1])------
///
/// ``elements`` keeps the last list while the state has none (`loading` after a Retry, a
/// `failed` reload), so rows do not blink away. ``lastChange`` is computed from the two lists
/// by element equality (deletions in the old list, insertions in the new one, as a table's
/// batch update takes them; an element that changed is a deletion and an insertion). It is
/// set only when the elements change.
///
/// (Observation is written out here rather than by `@Observable`: the macro spells each
/// property's key path where it is read and written, and the key path of a generic class is
/// built anew at run time every time — over a third of an element's time, profiled. The key
/// paths are made once, per state.)
@MainActor
public final class ObservedLoadState<Element: Hashable>: Observation.Observable {
    /// The list's state now.
    public private(set) var state: LoadState<Element> {
        get {
            registrar.access(self, keyPath: paths.state)
            return stored.state
        }
        set {
            registrar.withMutation(of: self, keyPath: paths.state) { stored.state = newValue }
        }
    }
    /// The last list the state had (empty before the first).
    public private(set) var elements: [Element] {
        get {
            registrar.access(self, keyPath: paths.elements)
            return stored.elements
        }
        set {
            registrar.withMutation(of: self, keyPath: paths.elements) { stored.elements = newValue }
        }
    }
    /// The change that made ``elements`` (`nil` before the first list).
    public private(set) var lastChange: ListChange<Element>? {
        get {
            registrar.access(self, keyPath: paths.lastChange)
            return stored.lastChange
        }
        set {
            registrar.withMutation(of: self, keyPath: paths.lastChange) { stored.lastChange = newValue }
        }
    }

    private var stored: (state: LoadState<Element>, elements: [Element], lastChange: ListChange<Element>?) = (.loading, [], nil)
    private let paths = (
        state: \ObservedLoadState<Element>.state,
        elements: \ObservedLoadState<Element>.elements,
        lastChange: \ObservedLoadState<Element>.lastChange
    )
    private let registrar = ObservationRegistrar()
    private let bag = DisposeBag()

    /// Creates the state of a stream of load states.
    ///
    /// - Parameter states: The states, delivered on the main actor whatever thread they come
    ///   from.
    public init(states: RxObservable<LoadState<Element>>) {
        states.subscribe(MainActorUpdate(self) { state, event in
            if case .next(let next) = event { state.apply(next) }
        }).disposed(by: bag)
    }

    /// Creates the state of a local-first list.
    ///
    /// - Parameter list: The list (subscribing starts its sources).
    public convenience init(_ list: LocalFirstList<Element>) {
        self.init(states: list.states)
    }

    /// Creates the state of a paged list, as its `PagedList.State.loadState`.
    ///
    /// - Parameter list: The list (subscribing asks for page 1).
    public convenience init(_ list: PagedList<Element>) {
        self.init(states: list.states.map(\.loadState))
    }

    private func apply(_ next: LoadState<Element>) {
        state = next
        guard let list = next.list else { return }
        guard let previous = lastChange else {
            elements = list
            lastChange = .initial(list)
            return
        }
        guard previous.items != list else { return }
        let difference = list.difference(from: previous.items)
        var deletions: [Int] = []
        var insertions: [Int] = []
        for change in difference {
            switch change {
            case .remove(let offset, _, _): deletions.append(offset)
            case .insert(let offset, _, _): insertions.append(offset)
            }
        }
        elements = list
        lastChange = ListChange(items: list, difference: ListDifference(deletions: deletions.sorted(), insertions: insertions.sorted()))
    }
}
