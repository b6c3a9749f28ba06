import Foundation
import HeadlessUI
import ObjectStore

/// A menu category (`GET /categories`).
public struct Category: StoreObject, Hashable {
    /// The primary key.
    public static var primaryKey: KeyPath<Category, Int> { \.id }
    /// The server's id.
    public var id: Int
    /// The name shown on its chip.
    public var name: String

    /// Creates a category.
    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// A pizza of the menu, as stored (`GET /pizza`); its categories are links.
public struct Pizza: StoreObject {
    /// The primary key.
    public static var primaryKey: KeyPath<Pizza, Int> { \.id }
    /// The server's id.
    public var id: Int
    /// The name.
    public var name: String
    /// One line about it.
    public var summary: String
    /// The categories it belongs to (a to-many link).
    public var categories: [Category]
    /// The price in cents (USD).
    public var price: Int
    /// The photo's file name under `/photos/pizza/`.
    public var photo: String

    /// Creates a pizza.
    public init(id: Int, name: String, summary: String, categories: [Category], price: Int, photo: String) {
        self.id = id
        self.name = name
        self.summary = summary
        self.categories = categories
        self.price = price
        self.photo = photo
    }
}

/// A pizza as the server sends it: categories by id (`"category": [1, 2]`).
public struct PizzaResponse: Decodable, Sendable {
    /// The server's id.
    public var id: Int
    /// The name.
    public var name: String
    /// One line about it.
    public var summary: String
    /// The ids of its categories.
    public var category: [Int]
    /// The price in cents.
    public var price: Int
    /// The photo's file name.
    public var photo: String
}

/// A card of the Home screen (`GET /featured`); prices are optional.
public struct Featured: StoreObject {
    /// The primary key.
    public static var primaryKey: KeyPath<Featured, Int> { \.id }
    /// The server's id.
    public var id: Int
    /// The headline.
    public var title: String
    /// The line under it.
    public var subtitle: String
    /// The old price in cents (`price_was`), struck through when shown.
    public var priceWas: Int?
    /// The price in cents.
    public var price: Int?
    /// The photo's file name under `/photos/featured/`.
    public var photo: String
    /// The order of the cards.
    public var position: Int
}

/// A line of the cart; stored, so the cart survives a restart.
public struct CartItem: StoreObject {
    /// The primary key: `pizza-<id>` or `custom-<toppings>`.
    public static var primaryKey: KeyPath<CartItem, String> { \.id }
    /// The identity of what was added (the same pizza twice is one line, ×2).
    public var id: String
    /// The name shown.
    public var name: String
    /// The line under the name.
    public var summary: String
    /// The price of one, in cents.
    public var unitPrice: Int
    /// How many.
    public var quantity: Int
    /// The order lines were added in.
    public var position: Int
}

/// An order in the persistent order queue: pending → submitted → confirmed or failed.
public struct PlacedOrder: StoreObject {
    /// The primary key (`order-<n>`).
    public static var primaryKey: KeyPath<PlacedOrder, String> { \.id }
    /// The order's id.
    public var id: String
    /// The total in cents.
    public var total: Int
    /// How many pizzas.
    public var pizzas: Int
    /// How it is paid (`card`, `wallet`, `cash`).
    public var method: String
    /// Where it is in the queue.
    public var state: String
    /// Why it failed, when it did.
    public var reason: String?

    /// The states of an order.
    public enum State: String, Sendable {
        /// Stored, not sent yet.
        case pending
        /// Sent; no answer yet.
        case submitted
        /// The server confirmed it.
        case confirmed
        /// The server refused it.
        case failed
    }
}

/// Prices are US dollars.
func dollars(_ cents: Int) -> Money { Money(minorUnits: Int64(cents), currency: .usd) }
