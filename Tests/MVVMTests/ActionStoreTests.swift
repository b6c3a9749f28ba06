import Foundation
import HeadlessUI
import MVVM
import ObjectStore
import Streams
import TestSupport
import Testing

private struct Todo: StoreObject, Equatable {
    static var primaryKey: KeyPath<Todo, Int> { \.id }
    var id: Int
    var title: String
    var isDone: Bool
}

private struct EmptyTitle: Error, CustomStringConvertible {
    var description: String { "a todo needs a title" }
}

/// `Action(store:enabledIf:write:)`: an action whose work is one store write.
@MainActor @Suite(.resourceCheck) struct ActionStoreTests {
    @Test func executionWritesAndEndsAfterTheCommit() throws {
        let store = Store()
        let add = Action<String, Todo>(store: store) { title, tx in
            let todo = Todo(id: tx.objects(Todo.self).count + 1, title: title, isDone: false)
            try tx.add(todo)
            return todo
        }
        var seenInStore: [Todo?] = [], completed = false
        let bag = DisposeBag()
        add.execute("Dough").subscribe(onNext: { _ in
            // The element comes after the commit: the store already holds the todo.
            seenInStore.append(store.object(ofType: Todo.self, forPrimaryKey: 1))
        }, onCompleted: { completed = true }).disposed(by: bag)
        #expect(seenInStore == [Todo(id: 1, title: "Dough", isDone: false)])
        #expect(completed)
        #expect(store.version == 1)
    }

    @Test func toggleUpdatesByPrimaryKeyAndObserversSeeAModification() throws {
        let store = Store()
        try store.write { try $0.add(Todo(id: 1, title: "Dough", isDone: false)) }
        let toggle = Action<Int, Void>(store: store) { id, tx in
            try tx.update(Todo.self, forPrimaryKey: id) { $0.isDone.toggle() }
        }
        var modifications: [[Int]] = []
        let bag = DisposeBag()
        store.objects(Todo.self).observe(on: CurrentThreadScheduler.instance).subscribe(onNext: { change in
            if case .update(_, _, _, let modified) = change { modifications.append(modified) }
        }).disposed(by: bag)
        toggle.execute(1)
        #expect(store.object(ofType: Todo.self, forPrimaryKey: 1)?.isDone == true)
        #expect(modifications == [[0]])
    }

    @Test func aFailedWriteRollsBackAndReachesErrorsAsAMessage() throws {
        let store = Store()
        let add = Action<String, Void>(store: store) { title, tx in
            try tx.add(Todo(id: 1, title: title, isDone: false))
            guard !title.isEmpty else { throw EmptyTitle() }
        }
        let toggle = Action<Int, Void>(store: store) { id, tx in
            try tx.update(Todo.self, forPrimaryKey: id) { $0.isDone.toggle() }
        }
        var messages: [String] = [], executionFailed = false
        let bag = DisposeBag()
        add.errors.subscribe(onNext: { messages.append($0.localizedDescription) }).disposed(by: bag)
        toggle.errors.subscribe(onNext: { messages.append("\($0)") }).disposed(by: bag)
        add.execute("").subscribe(onError: { _ in executionFailed = true }).disposed(by: bag)
        toggle.execute(7)
        #expect(executionFailed)
        #expect(store.objects(Todo.self).isEmpty)
        #expect(store.version == 0)
        #expect(messages == ["a todo needs a title", "no Todo with primary key 7"])
    }

    @Test func enabledIfGatesTheWrite() throws {
        let store = Store()
        let enabled = BehaviorRelay(value: false)
        let add = Action<String, Void>(store: store, enabledIf: enabled.asObservable()) { title, tx in
            try tx.add(Todo(id: 1, title: title, isDone: false))
        }
        var errors: [String] = []
        let bag = DisposeBag()
        add.errors.subscribe(onNext: { errors.append("\($0)") }).disposed(by: bag)
        add.execute("Dough")
        #expect(store.version == 0)
        enabled.accept(true)
        add.execute("Dough")
        #expect(store.version == 1)
        #expect(errors == ["the action is not enabled"])
    }
}
