import Foundation
@testable import ObjectStore

struct Category: StoreObject, Equatable, Hashable {
    static var primaryKey: KeyPath<Category, Int> { \.id }
    var id: Int
    var name: String
}

struct Chef: Codable, Equatable, Hashable {
    var name: String
    var age: Int
}

struct Pizza: StoreObject, Equatable {
    static var primaryKey: KeyPath<Pizza, Int> { \.id }
    static var indexedProperties: [String] { ["name"] }
    var id: Int
    var name: String
    var price: Double
    var vegetarian: Bool
    var rating: Int?
    var tags: [String]
    var categories: [Category]
    var main: Category?
    var chef: Chef?
    var baked: Date
    var code: UUID
    var weight: Int16
}

enum Fixture {
    static let classic = Category(id: 1, name: "Classic")
    static let veggie = Category(id: 2, name: "Veggie")
    static let spicy = Category(id: 3, name: "Spicy")
    static let base = Date(timeIntervalSince1970: 1_700_000_000)

    static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))! }

    static let pizzas: [Pizza] = [
        Pizza(id: 1, name: "Margherita", price: 700, vegetarian: true, rating: 5, tags: ["cheese", "basil"],
              categories: [classic, veggie], main: classic, chef: Chef(name: "Luigi", age: 40), baked: base, code: uuid(1), weight: 300),
        Pizza(id: 2, name: "Pepperoni", price: 900, vegetarian: false, rating: 4, tags: ["meat"],
              categories: [classic, spicy], main: classic, chef: Chef(name: "Mario", age: 35), baked: base.addingTimeInterval(3600), code: uuid(2), weight: 350),
        Pizza(id: 3, name: "Quattro Formaggi", price: 1100, vegetarian: true, rating: nil, tags: ["cheese"],
              categories: [veggie], main: veggie, chef: nil, baked: base.addingTimeInterval(7200), code: uuid(3), weight: 320),
        Pizza(id: 4, name: "Diavola", price: 1000, vegetarian: false, rating: 3, tags: [],
              categories: [spicy], main: spicy, chef: Chef(name: "Mario", age: 35), baked: base.addingTimeInterval(-3600), code: uuid(4), weight: 340),
        Pizza(id: 5, name: "Crème Brûlée", price: 1250.5, vegetarian: true, rating: 2, tags: ["sweet", "cheese"],
              categories: [], main: nil, chef: Chef(name: "Zoé", age: 28), baked: base.addingTimeInterval(86400), code: uuid(5), weight: 200),
        Pizza(id: 6, name: "marinara", price: 600, vegetarian: true, rating: 4, tags: ["garlic"],
              categories: [classic, veggie, spicy], main: classic, chef: nil, baked: base.addingTimeInterval(60), code: uuid(6), weight: 280),
    ]

    /// A store holding ``pizzas``, on the given backend.
    static func store(_ backend: StoreBackend = .memory) throws -> Store {
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(pizzas, update: .modified) }
        return store
    }
}
