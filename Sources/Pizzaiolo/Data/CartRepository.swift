import Foundation
import ObjectStore
import Repository
import Streams

/// A cart line as shown.
public struct CartRow: Hashable, Sendable {
    /// The line's identity.
    public let id: String
    /// The name.
    public let name: String
    /// How many.
    public let quantity: Int
    /// The line's total in cents.
    public let totalCents: Int
    /// `×2`.
    public var quantityText: String { "×\(quantity)" }
    /// The line's total, e.g. `$17.98`.
    public var total: String { dollars(totalCents).format() }

    init(_ item: CartItem) {
        id = item.id
        name = item.name
        quantity = item.quantity
        totalCents = item.unitPrice * item.quantity
    }
}

/// The stored cart.
public final class CartRepository: @unchecked Sendable {
    let store: Store

    /// How many pizzas are in the cart, now and after every commit that changes the cart: the
    /// store sums the `quantity` column (no line is decoded). One `Driver`, so every screen's
    /// badge shares one observation.
    ///
    ///     add ── add ── increment ── remove(the ×3 line)
    ///     1 ──── 2 ──── 3 ────────── 0
    public let count: Driver<Int>

    init(store: Store) {
        self.store = store
        // Observed where the commit is published (the writer's thread, for Add to cart the main
        // thread): `asDriver` makes the one hop to the main scheduler.
        count = store.objects(CartItem.self).observe(on: ImmediateScheduler.instance)
            .map { change in
                switch change {
                case .initial(let items), .update(let items, _, _, _): return items.sum(ofProperty: "quantity")
                case .error(let error): throw error
                }
            }
            .asDriver(onErrorJustReturn: 0)
    }

    /// The lines in the order they were added, now and after every change.
    public var rows: Observable<[CartRow]> { lines.observeAll(on: MainScheduler.instance) }

    /// The lines with the store's change set of each commit that changes them: what the
    /// Cart's table animates.
    public var changes: Observable<ListChange<CartRow>> { lines.observeChanges(on: MainScheduler.instance) }

    private var lines: ViewModelQuery<CartItem, CartRow> {
        ViewModelQuery(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "position")], viewModel: CartRow.init)
    }

    /// The lines now.
    public var items: [CartItem] { store.objects(CartItem.self).sorted(byKeyPath: "position").toArray() }

    /// Adds the pizza of a Selector page: a new line, or one more on its line.
    ///
    /// - Parameter page: The page shown.
    /// - Throws: The store's error.
    public func add(_ page: PizzaPage) throws {
        try add(id: "pizza-\(page.id)", name: page.name, summary: page.summary, unitPrice: page.cents)
    }

    /// Adds one of something: a new line, or one more on its line.
    public func add(id: String, name: String, summary: String, unitPrice: Int) throws {
        try store.write { tx in
            if var item = tx.object(ofType: CartItem.self, forPrimaryKey: id) {
                item.quantity += 1
                try tx.add(item, update: .modified)
            } else {
                let next = (tx.objects(CartItem.self).max(ofProperty: "position") as Int?).map { $0 + 1 } ?? 0
                try tx.add(CartItem(id: id, name: name, summary: summary, unitPrice: unitPrice, quantity: 1, position: next))
            }
        }
    }

    /// One more on line `id`.
    public func increment(_ id: String) throws { try store.write { try Self.increment(id, in: $0) } }

    /// One fewer on line `id`, never below one (delete the line instead).
    public func decrement(_ id: String) throws { try store.write { try Self.decrement(id, in: $0) } }

    /// Removes line `id`.
    public func remove(_ id: String) throws { try store.write { try Self.remove(id, in: $0) } }

    // The same edits inside a write transaction, for an `Action(store:write:)`.

    static func increment(_ id: String, in tx: Transaction) throws { try change(id, in: tx) { $0 + 1 } }

    static func decrement(_ id: String, in tx: Transaction) throws { try change(id, in: tx) { max(1, $0 - 1) } }

    static func remove(_ id: String, in tx: Transaction) throws {
        if let item = tx.object(ofType: CartItem.self, forPrimaryKey: id) { try tx.delete(item) }
    }

    /// A line already gone (deleted by another tap) is left alone.
    private static func change(_ id: String, in tx: Transaction, _ quantity: (Int) -> Int) throws {
        guard tx.object(ofType: CartItem.self, forPrimaryKey: id) != nil else { return }
        _ = try tx.update(CartItem.self, forPrimaryKey: id) { $0.quantity = quantity($0.quantity) }
    }
}
