import Foundation
import HeadlessUI
import MVVM
import ObjectStore
import Repository
import Streams

/// The Cart's state: the lines with the store's change set of each commit (the table
/// animates exactly the rows a commit touched, with no diff in the UI), the totals, and the
/// edits, each an ``HeadlessUI/Action`` (a cell's + and − are bound to one) whose failure is
/// shown.
///
///     lines:  ─initial([a, b])── change([a×2, b], modifications [0]) ── change([b], deletions [0])
///     totals: ─"2 pizzas: $16.98"── "3 pizzas: $25.97" ───────────── "1 pizza: $7.99"
public final class CartViewModel {
    /// The one section of lines, as change sets for ``HeadlessUI/RxTableViewSectionedChangesetDataSource``.
    public let lines: Driver<Changeset<SectionModel<String, CartRow>>>
    /// `3 pizzas: $26.97`.
    public let totals: Driver<String>
    /// Whether the cart is empty (the message shows; the totals and Pay hide).
    public let isEmpty: Driver<Bool>
    /// Why the last edit failed, or `nil`.
    public let error: Driver<String?>
    /// One more on the line with this id.
    public let increment: Action<String, Void>
    /// One fewer on the line with this id (never below one).
    public let decrement: Action<String, Void>
    /// Removes the line with this id.
    public let remove: Action<String, Void>

    /// Creates the view model.
    ///
    /// - Parameter cart: The stored cart.
    public init(cart: CartRepository) {
        let changes = cart.changes.asDriver(onErrorDriveWith: .empty())
        lines = changes.map { $0.changeset(section: "cart") }
        let rows = changes.map(\.items)
        totals = rows.map { rows in
            let count = rows.reduce(0) { $0 + $1.quantity }
            let total = rows.reduce(0) { $0 + $1.totalCents }
            return "\(count) pizza\(count == 1 ? "" : "s"): \(dollars(total).format())"
        }
        isEmpty = rows.map(\.isEmpty)
        increment = Action(store: cart.store) { id, tx in try CartRepository.increment(id, in: tx) }
        decrement = Action(store: cart.store) { id, tx in try CartRepository.decrement(id, in: tx) }
        remove = Action(store: cart.store) { id, tx in try CartRepository.remove(id, in: tx) }
        error = errorMessages([
            increment.reporting("Could not add one"),
            decrement.reporting("Could not remove one"),
            remove.reporting("Could not delete the line"),
        ])
    }
}
