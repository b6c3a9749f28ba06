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
print(screen.view.render())
