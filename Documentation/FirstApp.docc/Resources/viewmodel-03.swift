import Differentiator
import Foundation
import MVVM
import ObjectStore
import Repository
import Streams

/// One row of the list: what a cell shows.
struct TodoRow: Equatable {
    let id: String
    let text: String
}

struct TodoListViewModel {
    /// The table's sections: an initial list, then a change set per search or commit.
    let sections: Driver<Changeset<SectionModel<String, TodoRow>>>
    /// "3 todos, 1 done".
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

        summary = Observable.collection(from: store.objects(Todo.self), on: scheduler)
            .map { todos in "\(todos.count) todos, \(todos.filter("isDone == true").count) done" }
            .asDriver(onErrorJustReturn: "")

        add = Action(store: store) { title, transaction in
            let title = title.trimmingCharacters(in: .whitespaces)
            guard !title.isEmpty else { throw TodoError.emptyTitle }
            let todo = Todo(id: UUID().uuidString, title: title)
            try transaction.add(todo)
            return todo
        }
        toggle = Action(store: store) { id, transaction in
            try transaction.update(Todo.self, forPrimaryKey: id) { $0.isDone.toggle() }
        }
    }
}
