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
/// ``all()`` is the Pizzaiolo chain with its known flaws fixed:
///
///     Observable.of(network, local).merge()
///       .filter { !$0.isEmpty }                       // the app used count > 1: one-item lists vanished
///       .distinctUntilChanged(same elements, any order) // the app compared sorted hashValues: collisions missed updates
///       .share(replay: 1)
///
/// and a network failure after data was delivered no longer ends the stream: it becomes
/// ``ResourceStatus/stale(_:)`` on ``status`` while the list stays. With nothing delivered,
/// the error reaches subscribers (the UI shows its error view), ``status`` says
/// ``ResourceStatus/failed(_:)``, and `retry()` runs both sources again.
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
        .combine(status: status)
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
    enum Input {
        case local([ViewModel])
        case network([ViewModel])
        case networkFailed(Error)
    }

    /// `true` when both arrays hold the same elements, each as many times, in any order.
    static func sameElements(_ lhs: [ViewModel], _ rhs: [ViewModel]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var counts: [ViewModel: Int] = [:]
        for element in lhs { counts[element, default: 0] += 1 }
        for element in rhs {
            guard let count = counts[element], count > 0 else { return false }
            counts[element] = count - 1
        }
        return true
    }
}

extension Observable {
    /// The Manager's merge rules over the serialised events of both sources: drop empty lists,
    /// drop lists equal (in any order) to the last one delivered, turn a network failure into
    /// `stale` once data is on screen, and hold a failure that arrives before the local store
    /// answered until it does (local data then wins; an empty store lets the error through).
    fileprivate func combine<ViewModel: Hashable>(status: BehaviorRelay<ResourceStatus>) -> Observable<[ViewModel]> where Element == Manager<ViewModel>.Input {
        Observable<[ViewModel]>.create { observer in
            let state = Locked(MergeState<ViewModel>())
            return self.subscribe { event in
                switch event {
                case .next(let input):
                    var toSend: [ViewModel]?
                    var statuses: [ResourceStatus] = []
                    var failure: Error?
                    state.withLock { state in
                        if state.failed { return }
                        var arrived: (DataOrigin, [ViewModel])?
                        switch input {
                        case .local(let list):
                            state.localSeen = true
                            arrived = (.local, list)
                            if list.isEmpty, state.last == nil, let pending = state.pendingError {
                                failure = pending
                            }
                        case .network(let list):
                            arrived = (.network, list)
                        case .networkFailed(let error):
                            if state.last != nil {
                                statuses.append(.stale(error))
                            } else if state.localSeen {
                                failure = error
                            } else {
                                state.pendingError = error
                            }
                        }
                        if let (origin, list) = arrived, !list.isEmpty {
                            if state.last.map({ !Manager<ViewModel>.sameElements($0, list) }) ?? true {
                                toSend = list
                            }
                            // The store echoing what the network just delivered changes nothing;
                            // the network confirming what is on screen makes it fresh.
                            if toSend != nil || origin == .network {
                                statuses.append(.loaded(origin: origin))
                            }
                            state.last = list
                            if let pending = state.pendingError {
                                state.pendingError = nil
                                statuses.append(.stale(pending))
                            }
                        }
                        if let failure {
                            state.failed = true
                            statuses.append(.failed(failure))
                        }
                    }
                    if let toSend { observer.onNext(toSend) }
                    for item in statuses { status.accept(item) }
                    if let failure { observer.onError(failure) }
                case .error(let error):
                    status.accept(.failed(error))
                    observer.onError(error)
                case .completed:
                    observer.onCompleted()
                }
            }
        }
    }
}

/// What ``Observable/combine(status:)`` remembers for one subscription.
private struct MergeState<ViewModel> {
    var localSeen = false
    var last: [ViewModel]?
    var pendingError: Error?
    var failed = false
}
