import Foundation
import HeadlessUI
import ObjectStore
import Streams
import Testing
@testable import TodoApp

@MainActor
@Test func tappingARowTogglesIt() throws {
    let store = Store()
    try store.write { transaction in try transaction.add(Todo(id: "1", title: "buy milk")) }
    let screen = Headless.run { TodoListScreen { search in TodoListViewModel(search: search, store: store) } }
    Headless.run { _ = screen.view }
    #expect(MainScheduler.run(until: { screen.tableView.numberOfRows(inSection: 0) == 1 }, timeout: 5))

    Headless.run { _ = screen.tableView.tapRow(at: IndexPath(row: 0, section: 0)) }
    #expect(store.object(ofType: Todo.self, forPrimaryKey: "1")?.isDone == true)
    #expect(screen.tableView.cellForRow(at: IndexPath(row: 0, section: 0))?.textLabel?.text == "[x] buy milk")
    #expect(screen.summaryLabel.text == "1 todos, 1 done")
}
