// A file of an app that uses SwiftUI beside Apple's other frameworks, and our modules for its
// view model: the FirstApp guide's view model, unchanged, and a SwiftUI view. Every name that
// two imported modules declare must still resolve (SwiftUI's `View`, `Image`, `Button`,
// `Transaction`, Combine's `Subscription`, Apple's `Network` module). `Query` is both
// SwiftData's property wrapper and Repository's RxSwift-era name for `ViewModelQuery`: a bare
// `Query` names both, so this file, which imports both modules, writes `ViewModelQuery` for ours
// and `@SwiftData.Query` for SwiftData's (Guides/Repositories.md).
import Combine
import Differentiator
import MVVM
import Network
import ObjectStore
import Repository
import StoreKit
import Streams
import SwiftData
import SwiftUI

struct Todo: StoreObject {
    static var primaryKey: KeyPath<Todo, String> { \.id }
    var id: String
    var title: String
    var isDone = false
}

struct TodoRow: Equatable {
    let id: String
    let text: String
}

struct TodoListViewModel {
    let sections: Driver<Changeset<SectionModel<String, TodoRow>>>
    let summary: Driver<String>
    let add: Action<String, Todo>
    let toggle: Action<String, Void>

    init(search: Driver<String>, store: Store, scheduler: ImmediateSchedulerType = MainScheduler.instance) {
        let todos = ViewModelQuery<Todo, TodoRow>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "title")]) { todo in
            TodoRow(id: todo.id, text: (todo.isDone ? "[x] " : "[ ] ") + todo.title)
        }
        sections = search
            .debounce(.milliseconds(300))
            .distinctUntilChanged()
            .map { text in text.isEmpty ? todos : todos.where { $0.title.contains(text, caseInsensitive: true) } }
            .asObservable()
            .observeChanges(on: scheduler)
            .map { $0.changeset(section: "todos") }
            .asDriver(onErrorDriveWith: .empty())
        summary = RxObservable.collection(from: store.objects(Todo.self), on: scheduler)
            .map { todos in "\(todos.count) todos" }
            .asDriver(onErrorJustReturn: "")
        add = Action(store: store) { title, transaction in
            let todo = Todo(id: UUID().uuidString, title: title)
            try transaction.add(todo)
            return todo
        }
        toggle = Action(store: store) { id, transaction in
            try transaction.update(Todo.self, forPrimaryKey: id) { $0.isDone.toggle() }
        }
    }
}

/// Uses the names the frameworks declare, each as an app would.
struct ContentView: View {
    @SwiftData.Query var stored: [Todo]
    @State var text = ""
    let transaction = Transaction()        // SwiftUI's (StoreKit's is `StoreKit.Transaction`)
    let connection = NWConnection()

    var body: some View {
        List {
            Text("Todos")
            Image(systemName: "checklist")
            Label("Add", systemImage: "plus")
            TextField("Search", text: Binding(get: { "" }, set: { _ in }))
            Button("Add") {}
            ProgressView()
        }
    }
}

/// Combine's `Subscription` beside the store's and the streams' types.
final class Canceller: Subscription {}
let purchase: StoreKit.Transaction? = nil
let network: any Repository.Network = FixtureNetwork(scheduler: MainScheduler.instance)
