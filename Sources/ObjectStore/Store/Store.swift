import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An embedded object database: models with primary keys, all-or-nothing write transactions,
/// a Realm-style query language and live, observable ``Results``.
///
///     let store = try Store(configuration: .inMemory(identifier: "pizzas"))
///     try store.write { tx in
///         try tx.add(Pizza(id: 1, name: "Margherita", price: 700, categories: [classic]))
///     }
///     let cheap = store.objects(Pizza.self).filter("price < %@", 1000)
///
/// The store is safe to use from any thread: readers see a consistent committed snapshot,
/// writers are serialised, and notifications go to the scheduler each observer chooses.
///
/// A store lives in memory (``Configuration/inMemory(identifier:objectTypes:)``) or in a file
/// (``Configuration/file(url:objectTypes:schemaVersion:migration:deleteIfMigrationNeeded:shouldCompactOnLaunch:durability:autoCompaction:)``)
/// to which every commit is appended before `write` returns; see `Guides/ObjectStore-FileFormat.md`.
public final class Store: @unchecked Sendable {
    /// The configuration this store was opened with.
    public let configuration: Configuration
    let core: StoreCore

    /// Opens a store.
    ///
    /// - Parameter configuration: Where the data lives; see ``Configuration/inMemory(identifier:objectTypes:)``
    ///   and ``Configuration/file(url:objectTypes:schemaVersion:migration:deleteIfMigrationNeeded:shouldCompactOnLaunch:durability:autoCompaction:)``.
    /// - Throws: ``StoreError/unsupportedModel(type:reason:)`` when a registered type cannot be
    ///   stored; for a file: ``StoreError/corrupted(offset:reason:)``,
    ///   ``StoreError/notAStoreFile(path:)``, ``StoreError/schemaVersionTooNew(stored:code:)``,
    ///   ``StoreError/migrationRequired(type:reason:)``, ``StoreError/migrationFailed(reason:)``,
    ///   ``StoreError/fileLocked(path:)``, ``StoreError/io(path:reason:)``, or what the
    ///   migration closure throws.
    public init(configuration: Configuration) throws {
        for type in configuration.objectTypes { _ = try ObjectSchema.of(type) }
        self.configuration = configuration
        switch configuration.storage {
        case .inMemory(let identifier): core = StoreRegistry.shared(identifier: identifier)
        case .file: core = try FileStoreOpener.core(configuration)
        }
        // Told after the open, outside the store's locks: the closures are the app's code.
        if let file = core.file {
            if let report = file.recovery { configuration.onRecovery?(report) }
            if let onDamage = configuration.onDamage { file.damage.addListener(ObjectIdentifier(self), onDamage) }
        }
    }

    deinit {
        if configuration.onDamage != nil { core.file?.damage.removeListener(ObjectIdentifier(self)) }
    }

    /// Opens a fresh, private in-memory store.
    public convenience init() {
        try! self.init(configuration: .inMemory(identifier: "anonymous-" + UUID().uuidString))
    }

    /// Checks that `type` can be stored and derives its schema now rather than at first use.
    ///
    /// - Parameter type: The model type.
    /// - Returns: Its schema.
    /// - Throws: ``StoreError/unsupportedModel(type:reason:)`` naming what cannot be stored.
    @discardableResult
    public func register<T: StoreObject>(_ type: T.Type) throws -> ObjectSchema {
        try ObjectSchema.of(type)
    }

    /// Runs `block` as one write transaction: all of it is committed, or (if it throws)
    /// none of it, and no notification fires.
    ///
    /// Writes are serialised across threads. Observers are notified after the commit, once per
    /// commit that changed what they watch.
    ///
    /// - Parameter block: Makes the changes through the ``Transaction`` it receives.
    /// - Returns: What `block` returns.
    /// - Throws: What `block` throws (after rolling back), or ``StoreError/nestedWrite``.
    @discardableResult
    public func write<Result>(_ block: (Transaction) throws -> Result) throws -> Result {
        try core.write(block)
    }

    /// Rewrites the store's file as a compact snapshot of its current data (crash-safe: the
    /// snapshot goes to a temporary file that is synced and renamed over the file).
    ///
    /// Does nothing for an in-memory store. Waits for a running write to finish.
    ///
    /// - Throws: ``StoreError/nestedWrite`` inside a `write` block, ``StoreError/io(path:reason:)``.
    public func compact() throws {
        try core.compact()
    }

    /// Whether the calling thread is inside a `write` block of this store.
    public var isInWriteTransaction: Bool { core.isWriterThread }

    /// All objects of a type, as live ``Results`` (in insertion order until sorted).
    ///
    /// - Parameter type: The model type.
    /// - Returns: The results; they always read the latest committed state.
    public func objects<T: StoreObject>(_ type: T.Type) -> Results<T> {
        Results(core: core, schema: schemaOrTrap(type), pipeline: [], pinned: nil)
    }

    /// The object with the given primary key, in O(1).
    ///
    /// - Parameters:
    ///   - type: The model type.
    ///   - key: The primary key.
    /// - Returns: The object, or `nil` when none has that key.
    public func object<T: StoreObject>(ofType type: T.Type, forPrimaryKey key: T.PrimaryKey) -> T? {
        let snapshot = core.snapshot()
        let schema = schemaOrTrap(type)
        guard let row = snapshot.table(schema)?.row(forKey: key.storeValue) else { return nil }
        return try? RowDecoder.decode(type, row: row, schema: schema, snapshot: snapshot)
    }

    /// The version of the latest commit (0 for an empty store); it grows by one per commit.
    public var version: Int { core.snapshot().version }

    /// Checks every table's indexes against its rows (for tests).
    package func _checkInvariants() -> Bool {
        core.snapshot().tables.values.allSatisfy { $0.checkInvariants() }
    }

    /// The change records of the latest commit (for tests of the write path's log). Only the
    /// latest is kept: a log of every commit would grow the process by every write forever.
    var _lastCommitLog: [ChangeRecord] { core.lastCommitLog }
}

/// Realm's name for the policy of ``Transaction/add(_:update:)-(T,_)``.
public typealias UpdatePolicy = Store.UpdatePolicy

extension Store {
    /// What `add` does when an object with the same primary key is already stored.
    public enum UpdatePolicy: Sendable {
        /// Throw ``StoreError/duplicatePrimaryKey(type:key:)``.
        case error
        /// Write (and report) only the fields whose values differ.
        case modified
        /// Overwrite every field and report all of them as modified.
        case all
    }
}

func schemaOrTrap<T: StoreObject>(_ type: T.Type) -> ObjectSchema {
    do { return try ObjectSchema.of(type) } catch { preconditionFailure("\(error)") }
}
