import Foundation
import ObjectStore

/// One todo, as the store keeps it: a `Codable` value with a primary key.
struct Todo: StoreObject {
    static var primaryKey: KeyPath<Todo, String> { \.id }
    var id: String
    var title: String
    var isDone = false
}
