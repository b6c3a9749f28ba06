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
        shared = Observable<[ViewModel]>.deferred {
            let delivered = Locked(false)
            status.accept(.loading)
            let fromNetwork = network
                .map { (DataOrigin.network, $0) }
                .catch { error in
                    if delivered.withLock({ $0 }) {
                        status.accept(.stale(error))
                        return .empty()
                    }
                    status.accept(.failed(error))
                    return .error(error)
                }
            let fromLocal = local.map { (DataOrigin.local, $0) }
            return Observable.of(fromNetwork, fromLocal).merge()
                .filter { !$0.1.isEmpty }
                .do(onNext: { origin, _ in
                    delivered.withLock { $0 = true }
                    status.accept(.loaded(origin: origin))
                })
                .map { $0.1 }
                .distinctUntilChanged { Manager.sameElements($0, $1) }
        }
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
