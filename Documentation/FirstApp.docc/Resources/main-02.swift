import Foundation
import HeadlessUI
import Streams

// A fresh store in a temporary folder, removed when the run ends.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let store = try openTodoStore(in: folder)

let screen = Headless.run { TodoListScreen { search in TodoListViewModel(search: search, store: store) } }
Headless.run { _ = screen.view }
for title in ["buy milk", "bake bread", "call mum"] {
    Headless.run {
        screen.newTodoField.clear()
        screen.newTodoField.type(title)
        _ = screen.addButton.tap()
    }
}
MainScheduler.run(until: { screen.tableView.numberOfRows(inSection: 0) == 3 }, timeout: 5)
Headless.run { _ = screen.tableView.tapRow(at: IndexPath(row: 1, section: 0)) }   // "buy milk"
Headless.run {
    screen.newTodoField.clear()
    _ = screen.addButton.tap()                                                    // an empty title
}
print(screen.view.render())
