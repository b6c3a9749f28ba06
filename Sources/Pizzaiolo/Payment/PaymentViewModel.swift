import Foundation
import HeadlessUI
import Streams

/// Payment's state: the total, the fate of the order placed here, and whether paying is
/// possible; a pure function of the pay taps and the stored cart and orders.
///
///     pay:     ───── card ─────────────────────
///     status:  nil ─ "Sending your order…" ─── "Order Placed"
///     canPay:  true ─ false ────────────────── false (the cart was emptied)
///
/// The order's fate is read from the store (``OrderQueue/status(of:)``), so a new Payment
/// screen starts with nothing to say and nothing is reset.
public final class PaymentViewModel {
    /// What the user does on Payment.
    public struct Input {
        /// The way to pay (`card`, `wallet` or `cash`) for each tap on a pay button.
        public var pay: Observable<String>

        /// Creates the input.
        public init(pay: Observable<String> = .empty()) { self.pay = pay }
    }

    /// `Total: $26.97`; kept as it was once the order is placed (the cart is emptied then).
    public let total: Driver<String>
    /// `Sending your order…`, `Order Placed`, `Payment failed: …`, or `nil` before paying.
    public let status: Driver<String?>
    /// Whether the pay buttons are enabled: something to pay, and no order sent or placed from
    /// this screen (a refused one can be paid again).
    public let canPay: Driver<Bool>
    /// Why storing the order failed, or `nil`.
    public let error: Driver<String?>

    /// Creates the view model. Each pay tap stores an order and sends it as ``status`` (or
    /// ``error``) delivers the tap: the screen's bindings drive it.
    ///
    /// - Parameters:
    ///   - input: The taps.
    ///   - cart: The cart paid for.
    ///   - orders: Where orders are stored and sent.
    public init(input: Input, cart: CartRepository, orders: OrderQueue) {
        let placed = input.pay
            .map { method in Result { try orders.place(method: method) } }
            .share()
        let orderStatus = placed
            .compactMap { result in (try? result.get()) ?? nil }
            .flatMapLatest { orders.status(of: $0) }
            .startWith(.idle)
            .asDriver(onErrorJustReturn: .idle)
        let rows = cart.rows.asDriver(onErrorJustReturn: [])
        total = Driver.combineLatest(rows, orderStatus)
            .scan(nil as String?) { shown, pair in
                let (rows, status) = pair
                // The cart emptied by a confirmed order keeps the total it had.
                if rows.isEmpty, status != .idle, let shown { return shown }
                return "Total: \(dollars(rows.reduce(0) { $0 + $1.totalCents }).format())"
            }
            .compactMap { $0 }
            .distinctUntilChanged()
        status = orderStatus.map { status -> String? in
            switch status {
            case .idle: return nil
            case .sending: return "Sending your order…"
            case .placed: return "Order Placed"
            case .failed(let reason): return "Payment failed: \(reason)"
            }
        }
        // The confirmation empties the cart and places the order in one commit, seen here in
        // either order: a placed order is not payable whatever the cart says meanwhile.
        canPay = Driver.combineLatest(rows, orderStatus) { rows, status in
            switch status {
            case .idle, .failed: return !rows.isEmpty
            case .sending, .placed: return false
            }
        }
        .distinctUntilChanged()
        error = placed
            .map { result -> String? in
                if case .failure(let error) = result { return "Could not store the order: \(error)" }
                return nil
            }
            .startWith(nil)
            .asDriver(onErrorJustReturn: nil)
    }
}
