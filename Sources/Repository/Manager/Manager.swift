import Foundation
import Streams

/// Where the data on screen came from.
public enum DataOrigin: Sendable, Equatable {
    /// The local store.
    case local
    /// The network (and was stored).
    case network
}

/// The state of a ``Manager``'s data, for banners and error views.
public enum ResourceStatus: Sendable, CustomStringConvertible {
    /// Nothing delivered yet.
    case loading
    /// Data delivered; `origin` says which source gave the latest.
    case loaded(origin: DataOrigin)
    /// Data is on screen but the network failed: show a banner, keep the data.
    case stale(Error)
    /// Nothing could be shown: the error also reached the subscribers of ``Manager/all()``.
    case failed(Error)

    /// `loading`, `loaded(local)`, `stale(…)` or `failed(…)`.
    public var description: String {
        switch self {
        case .loading: return "loading"
        case .loaded(let origin): return "loaded(\(origin))"
        case .stale(let error): return "stale(\(error))"
        case .failed(let error): return "failed(\(error))"
        }
    }
}

extension ResourceStatus: Equatable {
    /// Equal cases; errors compared with `errorsAreEqual`.
    public static func == (lhs: ResourceStatus, rhs: ResourceStatus) -> Bool {
        switch (lhs, rhs) {
        case (.loading, .loading): return true
        case (.loaded(let a), .loaded(let b)): return a == b
        case (.stale(let a), .stale(let b)), (.failed(let a), .failed(let b)): return errorsAreEqual(a, b)
        default: return false
        }
    }
}

/// Local first, network merged: the list a screen shows.
///
///     let manager = Manager(
///         local: query.observeAll(on: MainScheduler.instance),
///         network: network.fetch(url: pizzasURL).asObservable()
///             .flatMap { mapper.fromJSON($0, on: background).asObservable() }
///             .observe(on: MainScheduler.instance))
///     manager.all().bind(to: tableView.rx.items(…))
///
/// ``all()`` is the design's chain, read top to bottom in ``init(local:network:)``:
///
///     Observable.of(network, local).merge()
///       .filter { !$0.isEmpty }                         // the app used count > 1: one-item lists vanished
///       .distinctUntilChanged(same elements, any order) // the app compared sorted hashValues: collisions missed updates
///       .share(replay: 1)
///
/// with one step beside it: each event of the merge also goes through ``State``, a pure value
/// that says what ``status`` becomes. A network failure after data was delivered does not end
/// the stream: it becomes ``ResourceStatus/stale(_:)`` while the list stays. With nothing
/// delivered, the error reaches subscribers (the UI shows its error view), ``status`` says
/// ``ResourceStatus/failed(_:)``, and subscribing again runs both sources again.
public final class Manager<ViewModel: Hashable>: @unchecked Sendable {
    private let statusRelay = BehaviorRelay<ResourceStatus>(value: .loading)
    private let shared: Observable<[ViewModel]>

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - local: The stored view models, live (emits again when the store changes).
    ///   - network: Fetches, stores and returns fresh view models (usually one element).
    public init(local: Observable<[ViewModel]>, network: Observable<[ViewModel]>) {
        let status = statusRelay
        shared = Observable<Input>.deferred {
            if status.value != .loading { status.accept(.loading) }
            let fromNetwork = network.map(Input.network).catch { .just(.networkFailed($0)) }
            return Observable.of(fromNetwork, local.map(Input.local)).merge()
        }
        .scan((State(), State.Step())) { previous, input in
            var state = previous.0
            let step = state.reduce(input)
            return (state, step)
        }
        // Statuses follow the list they describe; a failure's status comes before the error.
        .do(onNext: { _, step in if step.failure != nil { step.statuses.forEach(status.accept) } },
            afterNext: { _, step in if step.failure == nil { step.statuses.forEach(status.accept) } },
            onError: { status.accept(.failed($0)) })
        .map { _, step in
            if let failure = step.failure { throw failure }
            return step.list ?? []
        }
        .filter { !$0.isEmpty }
        .distinctUntilChanged { Repository.sameElements($0, $1) }
        .share(replay: 1)
    }

    /// The list: local data first, network data merged, never empty, a new element only when
    /// the content changed; shared by every subscriber (one network request for all).
    ///
    ///     local:    -[a]----------------
    ///     network:  -------[a]---[a,b]|
    ///     all():    -[a]----------[a,b]-
    ///
    /// - Returns: The shared sequence of view models.
    public func all() -> Observable<[ViewModel]> { shared }

    /// The state of the data (loading, loaded, stale, failed) for banners and error views.
    public var status: Observable<ResourceStatus> { statusRelay.asObservable() }

    /// The current state.
    public var currentStatus: ResourceStatus { statusRelay.value }

    /// One event of the merged sources.
    public enum Input {
        /// The store's list (first at subscription, then after each change).
        case local([ViewModel])
        /// The network's list, already stored.
        case network([ViewModel])
        /// The network request failed.
        case networkFailed(Error)
    }

    /// The status rules of one subscription, as a value: ``reduce(_:)`` takes each event of the
    /// merged sources and says which statuses follow and whether the list fails. Pure, so the
    /// rules are tested without subscribing:
    ///
    ///     var state = Manager<Int>.State()
    ///     state.reduce(.networkFailed(error))   // held: the store has not answered yet
    ///     state.reduce(.local([1]))             // statuses [loaded(local), stale(error)]
    ///
    /// - A list that differs from the last one (in any order) is `loaded` from its origin; the
    ///   network confirming what is shown is `loaded(network)` too; the store echoing what the
    ///   network just stored changes nothing.
    /// - A network failure is `stale` once data was delivered, the list's failure once the
    ///   store answered with nothing, and held until the store answers before that (stored data
    ///   then wins and the failure becomes `stale`; an empty store lets it through).
    public struct State {
        /// What one event leads to.
        public struct Step {
            /// The list this event delivers (before the chain's `filter` and
            /// `distinctUntilChanged`), or `nil` for none.
            public var list: [ViewModel]?
            /// The statuses that follow it, in order (a failure's is `failed` alone).
            public var statuses: [ResourceStatus] = []
            /// The error that ends the list, if the event ends it.
            public var failure: Error?

            /// A step that changes nothing.
            public init() {}
        }

        private var localSeen = false
        private var last: [ViewModel]?
        private var pendingError: Error?
        private var failed = false

        /// The state of a new subscription: nothing seen.
        public init() {}

        /// Takes one event and says what follows it.
        ///
        /// - Parameter input: The event.
        /// - Returns: The list to deliver, the statuses and a failure, if any.
        public mutating func reduce(_ input: Input) -> Step {
            var step = Step()
            if failed { return step }
            var arrived: (DataOrigin, [ViewModel])?
            switch input {
            case .local(let list):
                localSeen = true
                arrived = (.local, list)
                if list.isEmpty, last == nil, let pending = pendingError { step.failure = pending }
            case .network(let list):
                arrived = (.network, list)
            case .networkFailed(let error):
                if last != nil {
                    step.statuses.append(.stale(error))
                } else if localSeen {
                    step.failure = error
                } else {
                    pendingError = error
                }
            }
            if let (origin, list) = arrived, !list.isEmpty {
                let changed = last.map { !Repository.sameElements($0, list) } ?? true
                step.list = list
                if changed || origin == .network { step.statuses.append(.loaded(origin: origin)) }
                last = list
                if let pending = pendingError {
                    pendingError = nil
                    step.statuses.append(.stale(pending))
                }
            }
            if let failure = step.failure {
                failed = true
                step.statuses.append(.failed(failure))
            }
            return step
        }
    }

    /// `true` when both arrays hold the same elements, each as many times, in any order.
    public static func sameElements(_ lhs: [ViewModel], _ rhs: [ViewModel]) -> Bool {
        Repository.sameElements(lhs, rhs)
    }
}

/// `true` when both arrays hold the same elements, each as many times, in any order.
private func sameElements<Element: Hashable>(_ lhs: [Element], _ rhs: [Element]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var counts: [Element: Int] = [:]
    for element in lhs { counts[element, default: 0] += 1 }
    for element in rhs {
        guard let count = counts[element], count > 0 else { return false }
        counts[element] = count - 1
    }
    return true
}
