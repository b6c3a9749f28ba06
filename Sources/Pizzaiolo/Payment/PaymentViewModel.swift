import Foundation
import HeadlessUI
import Streams

/// Payment's state: the total, the latest order's fate, and whether paying is possible.
///
///     pay:     ───── card ─────────────────────
///     status:  nil ─ "Sending your order…" ─── "Order Placed"
///     canPay:  true ─ false ────────────────── false (the cart was emptied)
public final class PaymentViewModel {
    /// `Total: $26.97`; kept as it was once the order is placed (the cart is emptied then).
    public let total: Driver<String>
    /// `Sending your order…`, `Order Placed`, `Payment failed: …`, or `nil` before paying.
    public let status: Driver<String?>
    /// Whether the pay buttons are enabled: something to pay and no order being sent.
    public let canPay: Driver<Bool>
    /// Why storing the order failed, or `nil`.
    public let error: Driver<String?>
    /// Places an order paid this way (`card`, `wallet` or `cash`).
    public let pay: Action<String, Void>

    init(cart: CartRepository, orders: OrderQueue) {
        orders.status.accept(.idle)
        let rows = cart.rows.asDriver(onErrorJustReturn: [])
        let orderStatus = orders.status.asDriver()
        total = Driver.combineLatest(rows, orderStatus)
            .filter { _, status in
                if case .placed = status { return false }
                return true
            }
            .map { rows, _ in "Total: \(dollars(rows.reduce(0) { $0 + $1.totalCents }).format())" }
        status = orderStatus.map { status -> String? in
            switch status {
            case .idle: return nil
            case .sending: return "Sending your order…"
            case .placed: return "Order Placed"
            case .failed(let reason): return "Payment failed: \(reason)"
            }
        }
        canPay = Driver.combineLatest(rows, orderStatus) { rows, status in !rows.isEmpty && status != .sending }
        pay = storeAction { try orders.place(method: $0) }
        error = errorMessages([pay.reporting("Could not store the order")])
    }
}
