import Foundation
import Streams

/// A list that shows what is stored first and what the network says next, as one stream of
/// ``LoadState``s: the source every screen showing that list reads.
///
///     let pizzas = LocalFirstList(
///         local: query.observeAll(on: MainScheduler.instance),
///         network: network.fetch(url: pizzasURL).asObservable()
///             .flatMap { mapper.fromJSON($0, on: background).asObservable() }
///             .observe(on: MainScheduler.instance),
///         reload: retryButton.rx.tap.asObservable())
///     pizzas.states.map(\.list).…          // loading, loaded, stale, failed: one stream
///
/// ``states`` is the design's chain, read top to bottom in ``init(local:network:reload:)``:
///
///     reload.startWith(()).flatMapLatest {            // each reload runs both sources again
///         Observable.of(network, local).merge()
///           .scan(State()) { $0.reduced(by: $1) }     // the rules, a pure value
///           .map(\.current)
///           .startWith(.loading)
///     }
///     .filter { !$0.isEmpty }                         // an empty list is never shown
///     .distinctUntilChanged { $0.isSame(as: $1) }     // same elements in any order: nothing new
///     .share(replay: 1)                               // one request for every subscriber
///
/// Errors are values: a network failure after data was delivered is
/// ``LoadState/stale(_:error:)`` and the list stays; with nothing to show it is
/// ``LoadState/failed(_:)``, and the next element of `reload` starts again from `loading`.
/// The stream itself does not fail (the store's observation does not).
public final class LocalFirstList<Element: Hashable>: @unchecked Sendable {
    /// The load states: `loading`, then the stored list, then the network's, or a failure as a
    /// value. Shared by every subscriber (one network request for all), replaying the latest.
    ///
    ///     local:    -[a]----------------
    ///     network:  -------[a]---[a,b]|
    ///     states:   L-[a]L--[a]N---[a,b]N-        (L: loaded from local, N: from the network)
    public let states: Observable<LoadState<Element>>

    /// Creates the list.
    ///
    /// - Parameters:
    ///   - local: The stored elements, live (emits again when the store changes).
    ///   - network: Fetches, stores and returns fresh elements (usually one element).
    ///   - reload: Each element loads again from both sources (a Retry button's taps, a pull
    ///     to refresh); nothing by default.
    public init(local: Observable<[Element]>, network: Observable<[Element]>, reload: Observable<Void> = .never()) {
        let fromNetwork = network.map(Input.network).catch { .just(.networkFailed($0)) }
        let fromStore = local.map(Input.local)
        states = reload.startWith(())
            .flatMapLatest { _ in
                Observable.of(fromNetwork, fromStore).merge()
                    .scan(State()) { $0.reduced(by: $1) }
                    .map(\.current)
                    .startWith(.loading)
            }
            .filter { !$0.isEmpty }
            .distinctUntilChanged { $0.isSame(as: $1) }
            .share(replay: 1)
    }

    /// The lists of ``states`` alone: the stored list first, the network's next, never empty,
    /// a new element only when the content changed. A failure is not in it (read ``states``
    /// for that).
    ///
    ///     states:  L--[a]L--stale([a])--[a,b]N-
    ///     all():   ---[a]---------------[a,b]--
    ///
    /// - Returns: The lists, sharing the subscription of ``states``.
    public func all() -> Observable<[Element]> {
        states.compactMap(\.list).distinctUntilChanged { Repository.sameElements($0, $1) }
    }

    /// One event of the merged sources.
    public enum Input {
        /// The store's list (first at subscription, then after each change).
        case local([Element])
        /// The network's list, already stored.
        case network([Element])
        /// The network request failed.
        case networkFailed(Error)
    }

    /// The rules of one load, as a value: ``reduced(by:)`` takes each event of the merged
    /// sources and gives the next ``current`` state. Pure, so the rules are tested without
    /// subscribing:
    ///
    ///     State().reduced(by: .networkFailed(offline))    // loading: the store has not answered
    ///            .reduced(by: .local([1])).current        // stale([1], offline)
    ///
    /// - A list that differs from the last one (in any order) is `loaded` from its origin; the
    ///   network confirming what is shown is `loaded` from the network too; the store echoing
    ///   what the network just stored changes nothing.
    /// - The store answering with nothing is `loaded([], local)`, which the chain filters out.
    /// - A network failure is `stale` once a list was delivered, `failed` once the store
    ///   answered with nothing, and held until the store answers before that (stored data then
    ///   wins and the failure makes it `stale`; an empty store makes it `failed`).
    /// - Once `failed`, nothing changes the state (a reload starts a new one).
    public struct State {
        /// The state after the events so far.
        public private(set) var current: LoadState<Element> = .loading
        private var localSeen = false
        private var pendingError: Error?

        /// The state of a new load: `loading`, nothing seen.
        public init() {}

        /// The state after `input`.
        ///
        /// - Parameter input: One event of the merged sources.
        /// - Returns: The next state; ``current`` says what the screen shows.
        public func reduced(by input: Input) -> State {
            var next = self
            next.reduce(input)
            return next
        }

        private var shown: [Element]? { current.list.flatMap { $0.isEmpty ? nil : $0 } }

        private mutating func reduce(_ input: Input) {
            if case .failed = current { return }
            switch input {
            case .local(let list):
                localSeen = true
                if !list.isEmpty {
                    arrived(list, from: .local)
                } else if shown == nil {
                    if let pending = pendingError { current = .failed(pending) } else { current = .loaded([], origin: .local) }
                }
            case .network(let list):
                if !list.isEmpty { arrived(list, from: .network) }
            case .networkFailed(let error):
                if let shown {
                    current = .stale(shown, error: error)
                } else if localSeen {
                    current = .failed(error)
                } else {
                    pendingError = error
                }
            }
        }

        private mutating func arrived(_ list: [Element], from origin: DataOrigin) {
            let changed = shown.map { !sameElements($0, list) } ?? true
            if changed || origin == .network { current = .loaded(list, origin: origin) }
            if let pending = pendingError {
                pendingError = nil
                current = .stale(list, error: pending)
            }
        }
    }

    /// `true` when both arrays hold the same elements, each as many times, in any order.
    public static func sameElements(_ lhs: [Element], _ rhs: [Element]) -> Bool {
        Repository.sameElements(lhs, rhs)
    }
}

/// The former name of ``LocalFirstList``.
@available(*, deprecated, renamed: "LocalFirstList")
public typealias Manager = LocalFirstList
