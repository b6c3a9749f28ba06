import Foundation
import ObjectStore
import Repository

/// The Pizzaiolo model used by the Mapper, Query and Manager tests.
struct Pizza: StoreObject, Equatable {
    static var primaryKey: KeyPath<Pizza, Int> { \.id }
    var id: Int
    var name: String
    var priceWas: Double
}

/// What a list row shows.
struct PizzaViewModel: Hashable {
    let id: Int
    let title: String

    init(_ pizza: Pizza) {
        id = pizza.id
        title = "\(pizza.name) (\(pizza.priceWas))"
    }

    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// JSON for pizzas, as the server sends it (`snake_case`).
func pizzasJSON(_ pizzas: [(Int, String, Double)]) -> String {
    "[" + pizzas.map { #"{"id": \#($0.0), "name": "\#($0.1)", "price_was": \#($0.2)}"# }.joined(separator: ", ") + "]"
}

func makePizzaStore(_ pizzas: [Pizza] = []) throws -> Store {
    let store = Store()
    try store.register(Pizza.self)
    if !pizzas.isEmpty { try store.write { try $0.add(pizzas) } }
    return store
}

func storedPizzas(_ store: Store) -> [Pizza] {
    store.objects(Pizza.self).sorted(byKeyPath: "id").toArray()
}
