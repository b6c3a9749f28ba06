import Foundation
import HeadlessUI
import Streams

/// A topping of the Maker.
public struct Topping: Hashable, Sendable {
    /// A stable id (the identity of a custom pizza is its sorted topping ids).
    public let id: String
    /// The name shown.
    public let name: String
    /// The price in cents.
    public let cents: Int
}

/// The Maker's state: toppings by section, the price, and what Add to cart adds; a pure
/// function of the taps (the chosen set is a `scan` over them).
///
///     toggle:  ── olives ── ham ─────── olives ──
///     price:   $2.99 ─ $3.49 ─ $4.99 ─── $4.49 ──
public final class MakerViewModel {
    /// The base price of a custom pizza: $2.99.
    public static let basePrice = 299
    /// The toppings, by section.
    public static let sections: [(title: String, toppings: [Topping])] = [
        ("Cheese", [Topping(id: "mozzarella", name: "Mozzarella", cents: 100), Topping(id: "gorgonzola", name: "Gorgonzola", cents: 150)]),
        ("Meat", [Topping(id: "ham", name: "Ham", cents: 150), Topping(id: "salami", name: "Salami", cents: 125)]),
        ("Vegetables", [Topping(id: "mushrooms", name: "Mushrooms", cents: 75), Topping(id: "olives", name: "Olives", cents: 50), Topping(id: "basil", name: "Basil", cents: 25)]),
    ]

    /// What the user does on the Maker, as streams of taps.
    public struct Input {
        /// A topping's id for each tap on it: chooses or drops it.
        public var toggle: Observable<String>
        /// A tap on Add to cart.
        public var addToCart: Observable<Void>

        /// Creates the input; every stream is empty unless given.
        public init(toggle: Observable<String> = .empty(), addToCart: Observable<Void> = .empty()) {
            self.toggle = toggle
            self.addToCart = addToCart
        }
    }

    /// The chosen toppings' ids.
    public let chosen: Driver<Set<String>>
    /// `Price: $4.74`.
    public let price: Driver<String>
    /// The chosen toppings' names, or an invitation to choose.
    public let summary: Driver<String>
    /// Whether Add to cart shows (once a topping is chosen).
    public let canAdd: Driver<Bool>
    /// Add to cart itself: each tap's add is written to the cart as this output delivers it,
    /// and the element is why it failed, or `nil` when it worked (`nil` at first). Nothing is
    /// added until something drives it (the screen's error line does), and it must be driven
    /// once: a Driver shares one subscription, so two bindings still add once per tap.
    public let addToCart: Driver<String?>

    /// Creates the view model: a pure function of the taps.
    ///
    /// - Parameters:
    ///   - input: The taps.
    ///   - cart: Where Add to cart writes.
    public init(input: Input, cart: CartRepository) {
        chosen = input.toggle
            .scan(Set<String>()) { $0.symmetricDifference([$1]) }
            .startWith([])
            .asDriver(onErrorJustReturn: [])
        price = chosen.map { "Price: \(dollars(Self.price($0)).format())" }
        summary = chosen.map { ids in
            let names = Self.toppings(ids).map(\.name)
            return names.isEmpty ? "Choose your toppings" : names.joined(separator: ", ")
        }
        canAdd = chosen.map { !$0.isEmpty }
        addToCart = input.addToCart
            .withLatestFrom(chosen)
            .map { ids -> String? in
                storeWrite("Could not add the pizza") {
                    guard !ids.isEmpty else { return }
                    try cart.add(id: Self.identity(ids), name: "Custom Pizza",
                                 summary: Self.toppings(ids).map(\.name).joined(separator: ", "), unitPrice: Self.price(ids))
                }
            }
            .startWith(nil)
            .asDriver(onErrorJustReturn: nil)
    }

    /// The chosen toppings, in menu order.
    public static func toppings(_ ids: Set<String>) -> [Topping] {
        sections.flatMap(\.toppings).filter { ids.contains($0.id) }
    }

    /// The price for `ids`: the base plus each topping.
    public static func price(_ ids: Set<String>) -> Int {
        basePrice + toppings(ids).reduce(0) { $0 + $1.cents }
    }

    /// The identity of a custom pizza: the same toppings in any order give the same id.
    public static func identity(_ ids: Set<String>) -> String { "custom-" + ids.sorted().joined(separator: "+") }
}
