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
    }
}
