import HeadlessUI
import ObjectStore
import Streams

extension Action {
    /// An action whose work is one write transaction on `store`: each execution runs `write`
    /// with its input inside `store.write`, and the action's element is what `write` returns.
    ///
    ///     let add = Action<String, Todo>(store: store) { title, tx in
    ///         guard !title.isEmpty else { throw TodoError.emptyTitle }
    ///         let todo = Todo(id: UUID().uuidString, title: title, isDone: false)
    ///         try tx.add(todo)
    ///         return todo
    ///     }
    ///     let toggle = Action<String, Void>(store: store) { id, tx in
    ///         try tx.update(Todo.self, forPrimaryKey: id) { $0.isDone.toggle() }
    ///     }
    ///     addButton.rx.bind(to: add) { _ in titleField.text ?? "" }
    ///
    /// The write runs on the thread that executes the action (a tap's: the main scheduler), and
    /// the execution ends after the commit: the observable `execute(_:)` returns sends the
    /// element and completes once the transaction is committed, and observers of the store have
    /// been told by then. An error thrown by `write` (or by the store) rolls the transaction
    /// back, ends the execution with that error, and reaches `Action.errors` as
    /// `ActionError.underlyingError(_:)`, whose description is the error's own, ready for a
    /// screen's error label.
    ///
    /// - Parameters:
    ///   - store: The store written to.
    ///   - enabledIf: Whether the action may run; always by default.
    ///   - write: Makes the changes for an input through the transaction, and returns the
    ///     action's element.
    public convenience init(store: Store, enabledIf: Observable<Bool> = Observable.just(true), write: @escaping (Input, Transaction) throws -> Element) {
        self.init(enabledIf: enabledIf) { input in
            Observable.deferred {
                .just(try store.write { transaction in try write(input, transaction) })
            }
        }
    }
}
