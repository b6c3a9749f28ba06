import Foundation
import HeadlessUI
import ObjectStore
import Streams

/// The error of a two-way binding whose stored object no longer exists.
public enum StoredBindingError: Error, Equatable, Sendable {
    /// The object was deleted, or never stored; `key` is its primary key.
    case objectNotFound(type: String, key: String)
}

extension Variable where Element: Equatable {
    /// Binds this view-model variable both ways to one property of a stored object.
    ///
    /// Setting the variable writes the new value in one transaction with `.modified`, so only
    /// that field is written and reported; a commit that changes the property (from anywhere)
    /// sets the variable. There are no echo loops, and nothing is written at construction: the
    /// stored value replaces the variable's at once.
    ///
    ///     let name = Variable("")
    ///     name.bindTwoWay(to: store, Pizza.self, primaryKey: 1, property: \.name)
    ///         .disposed(by: disposeBag)
    ///     name.value = "Margherita DOP"   // one commit: Pizza 1's name
    ///
    /// - Parameters:
    ///   - store: The store holding the object.
    ///   - type: The model type.
    ///   - primaryKey: The object's primary key.
    ///   - property: The bound property.
    ///   - scheduler: Where store changes are delivered (the UI's `MainScheduler` by default).
    ///   - onError: Called when a write fails (for example the object was deleted:
    ///     ``StoredBindingError/objectNotFound(type:key:)``); the variable then goes back to the
    ///     stored value. The default reports a programming error.
    /// - Returns: The binding; dispose it to stop both directions.
    public func bindTwoWay<Object: StoreObject>(
        to store: Store,
        _ type: Object.Type,
        primaryKey: Object.PrimaryKey,
        property: WritableKeyPath<Object, Element>,
        on scheduler: ImmediateSchedulerType = MainScheduler.instance,
        onError: ((Error) -> Void)? = nil
    ) -> Disposable {
        // Changes are observed before the current value is read, so no commit falls between.
        let changes = store.observe(type, forPrimaryKey: primaryKey, on: scheduler)
            .compactMap { change -> Element? in
                if case .change(let object, _) = change { return object[keyPath: property] }
                return nil
            }
        let current = Observable<Element>.deferred {
            Observable.from(optional: store.object(ofType: type, forPrimaryKey: primaryKey)?[keyPath: property])
        }
        let source = Observable.merge(changes, current)
        return bindTwoWay(to: source, write: { value in
            try store.write { transaction in
                guard var object = transaction.object(ofType: type, forPrimaryKey: primaryKey) else {
                    throw StoredBindingError.objectNotFound(type: String(describing: type), key: "\(primaryKey)")
                }
                object[keyPath: property] = value
                try transaction.add(object, update: .modified)
            }
        }, onError: onError)
    }
}
