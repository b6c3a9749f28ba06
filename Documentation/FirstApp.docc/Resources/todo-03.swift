import Foundation
import ObjectStore

/// One todo, as the store keeps it: a `Codable` value with a primary key.
struct Todo: StoreObject {
    static var primaryKey: KeyPath<Todo, String> { \.id }
    var id: String
    var title: String
    var isDone = false
}

/// Why a todo could not be added, in words a screen can show.
enum TodoError: Error, CustomStringConvertible {
    case emptyTitle
    var description: String { "a todo needs a title" }
}

/// Opens (or creates) the app's store in `folder`, which must exist.
func openTodoStore(in folder: URL) throws -> Store {
    try Store(configuration: .file(url: folder.appendingPathComponent("todos.store"), objectTypes: [Todo.self]))
}
