import Foundation
import Streams
import Locking

/// One changed property of an observed object, as Realm's `PropertyChange`.
public struct PropertyChange {
    /// The property's name.
    public let name: String
    /// The value before the commit.
    public let oldValue: Any?
    /// The value after the commit.
    public let newValue: Any?
}

/// A change to one observed object, as Realm's `ObjectChange`.
public enum ObjectChange<T: StoreObject> {
    /// The object after a commit that changed it, with the changed properties.
    case change(T, [PropertyChange])
    /// The object was deleted (the sequence then completes).
    case deleted
    /// The store file was found damaged where the object's rows lie, when the observation
    /// read them after a commit: a ``StoreError/corrupted(offset:reason:)``. Nothing follows it
    /// (an in-memory store never sends it).
    case error(Error)
}

extension Store {
    /// Observes one object by primary key: `.change` after each commit that modified it,
    /// `.deleted` (then completion) when it is deleted.
    ///
    /// - Parameters:
    ///   - type: The model type.
    ///   - key: The object's primary key.
    ///   - scheduler: Where events are delivered (default `MainScheduler.instance`).
    /// - Returns: The changes; nothing is sent at subscription.
    public func observe<T: StoreObject>(_ type: T.Type, forPrimaryKey key: T.PrimaryKey, on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<ObjectChange<T>> {
        let core = self.core
        let schema = schemaOrTrap(type)
        return Observable.create { observer in
            let watcher = ObjectWatcher<T>(core: core, schema: schema, key: key.storeValue, scheduler: scheduler, observer: observer)
            core.register(watcher) { _ in nil }
            return Disposables.create { watcher.stop() }
        }
    }

    /// Observes a stored object (by its primary key); see ``observe(_:forPrimaryKey:on:)``.
    ///
    /// - Parameters:
    ///   - object: The object.
    ///   - scheduler: Where events are delivered.
    /// - Returns: The changes.
    public func observe<T: StoreObject>(_ object: T, on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<ObjectChange<T>> {
        observe(T.self, forPrimaryKey: object[keyPath: T.primaryKey], on: scheduler)
    }
}

final class ObjectWatcher<T: StoreObject>: CommitObserver, @unchecked Sendable {
    let core: StoreCore
    let schema: ObjectSchema
    let key: StoreValue
    let scheduler: ImmediateSchedulerType
    let observer: AnyObserver<ObjectChange<T>>
    private let stopped = Lock()
    private var isStopped = false

    init(core: StoreCore, schema: ObjectSchema, key: StoreValue, scheduler: ImmediateSchedulerType, observer: AnyObserver<ObjectChange<T>>) {
        self.core = core
        self.schema = schema
        self.key = key
        self.scheduler = scheduler
        self.observer = observer
    }

    func stop() {
        stopped.withLock { isStopped = true }
        core.unregister(self)
    }

    func committed(_ commit: CommitChanges) -> (() -> Void)? {
        guard let changes = commit.tables[schema.name] else { return nil }
        if changes.deleted.contains(key) {
            core.unregister(self)
            return { [self] in send { $0.onNext(.deleted); $0.onCompleted() } }
        }
        guard let fields = changes.modified[key] else { return nil }
        guard let oldRow = commit.old.table(schema)?.row(forKey: key),
              let newRow = commit.new.table(schema)?.row(forKey: key),
              let object = try? RowDecoder.decode(T.self, row: newRow, schema: schema, snapshot: commit.new) else {
            // A modified object's rows are there unless the file is damaged where they lie.
            guard let damage = core.file?.damage.error else { return nil }
            core.unregister(self)
            return { [self] in send { $0.onNext(.error(damage)) } }
        }
        let properties = fields.sorted().map {
            PropertyChange(name: schema.fields[$0].name, oldValue: oldRow[$0].anyValue, newValue: newRow[$0].anyValue)
        }
        return { [self] in send { $0.onNext(.change(object, properties)) } }
    }

    private func send(_ body: @escaping (AnyObserver<ObjectChange<T>>) -> Void) {
        _ = scheduler.schedule(()) { [self] _ in
            if !stopped.withLock({ isStopped }) { body(observer) }
            return Disposables.create()
        }
    }
}
