import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ObjectStore
import Repository
import Streams

/// What the Payment screen says about the latest order.
public enum OrderStatus: Equatable, Sendable {
    /// Nothing placed yet.
    case idle
    /// Sent to the kitchen, waiting for its answer.
    case sending
    /// Confirmed: the cart was cleared.
    case placed(id: String)
    /// Refused or unreachable: the cart is kept.
    case failed(reason: String)
}

extension OrderStatus {
    /// The status a stored order stands for.
    init(_ order: PlacedOrder) {
        switch PlacedOrder.State(rawValue: order.state) {
        case .confirmed?: self = .placed(id: order.id)
        case .failed?: self = .failed(reason: order.reason ?? "the kitchen did not confirm the order")
        case .pending?, .submitted?, nil: self = .sending
        }
    }
}

/// The persistent order queue: an order is stored before it is sent, so one that was not
/// confirmed survives a restart and is sent again on launch. An order's fate is stored with it,
/// and ``status(of:)`` reads it from the store: a screen that shows it holds no state.
public final class OrderQueue: @unchecked Sendable {
    let store: Store
    let backend: Backend
    /// The requests in flight: they finish even when the screen that placed them is gone.
    private let disposeBag = DisposeBag()

    init(store: Store, backend: Backend) {
        self.store = store
        self.backend = backend
    }

    /// Stores an order for the cart's content and sends it.
    ///
    /// - Parameter method: `card`, `wallet` or `cash`.
    /// - Returns: The order's id, for ``status(of:)``; `nil` when the cart is empty.
    /// - Throws: The store's error (nothing was sent then).
    @discardableResult
    public func place(method: String) throws -> String? {
        let items = store.objects(CartItem.self).toArray()
        guard !items.isEmpty else { return nil }
        let order = try store.write { tx -> PlacedOrder in
            let order = PlacedOrder(
                id: "order-\(tx.objects(PlacedOrder.self).count + 1)",
                total: items.reduce(0) { $0 + $1.unitPrice * $1.quantity },
                pizzas: items.reduce(0) { $0 + $1.quantity },
                method: method, state: PlacedOrder.State.pending.rawValue, reason: nil)
            try tx.add(order)
            return order
        }
        submit(order)
        return order.id
    }

    /// The fate of order `id`, read from the store now and after each change: `sending` while
    /// it is stored or sent, then `placed` or `failed`.
    ///
    ///     place ─ sending ───────── placed(id)         the kitchen confirmed
    ///     place ─ sending ───────── failed(reason)     refused or unreachable
    ///
    /// - Parameter id: An id ``place(method:)`` returned.
    /// - Returns: The statuses, on the main scheduler.
    public func status(of id: String) -> Observable<OrderStatus> {
        Observable.collection(from: store.objects(PlacedOrder.self).filter("id == %@", id), on: MainScheduler.instance)
            .map { orders in orders.first.map(OrderStatus.init) ?? .idle }
            .distinctUntilChanged()
    }

    /// Sends again every order that was stored but not confirmed (at launch).
    public func resume() {
        let unfinished = store.objects(PlacedOrder.self)
            .filter("state IN %@", [PlacedOrder.State.pending.rawValue, PlacedOrder.State.submitted.rawValue])
            .sorted(byKeyPath: "id").toArray()
        unfinished.forEach(submit)
    }

    /// The orders stored, in the order they were placed.
    public var orders: [PlacedOrder] { store.objects(PlacedOrder.self).sorted(byKeyPath: "id").toArray() }

    private func submit(_ order: PlacedOrder) {
        setState(order.id, .submitted, reason: nil)
        var request = URLRequest(url: backend.url("orders"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"id": "\#(order.id)", "total": \#(order.total), "method": "\#(order.method)"}"#.utf8)
        backend.network.fetch(request)
            .observe(on: MainScheduler.instance)
            .subscribe(onSuccess: { [weak self] body in
                guard let self else { return }
                if String(decoding: body, as: UTF8.self).contains(#""confirmed""#) {
                    self.confirm(order.id)
                } else {
                    self.fail(order.id, reason: "the kitchen did not confirm the order")
                }
            }, onFailure: { [weak self] error in
                self?.fail(order.id, reason: Self.describe(error))
            })
            .disposed(by: disposeBag)
    }

    private func confirm(_ id: String) {
        do {
            try store.write { tx in
                guard var order = tx.object(ofType: PlacedOrder.self, forPrimaryKey: id) else { return }
                order.state = PlacedOrder.State.confirmed.rawValue
                try tx.add(order, update: .modified)
                try tx.deleteAll(CartItem.self)
            }
        } catch {
            fail(id, reason: "\(error)")
        }
    }

    private func fail(_ id: String, reason: String) {
        setState(id, .failed, reason: reason)
    }

    private func setState(_ id: String, _ state: PlacedOrder.State, reason: String?) {
        try? store.write { tx in
            guard var order = tx.object(ofType: PlacedOrder.self, forPrimaryKey: id) else { return }
            order.state = state.rawValue
            order.reason = reason
            try tx.add(order, update: .modified)
        }
    }

    static func describe(_ error: Error) -> String {
        switch error as? NetworkError {
        case .unreachable?: return "no connection to the kitchen"
        case .timedOut?: return "the kitchen did not answer in time"
        case .badStatus(let code, let body)?:
            // A short plain-text reason is shown as it is; an error page is summed up by its status.
            let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let readable = !text.isEmpty && text.count <= 80 && !text.hasPrefix("<") && !text.contains("\n")
            return readable ? "the kitchen refused the order: \(text)" : "the kitchen refused the order (\(code))"
        default: return "\(error)"
        }
    }
}
