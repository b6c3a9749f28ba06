import Foundation
import Streams
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
    /// Where a store keeps its data, and how a file store opens.
    public struct Configuration: @unchecked Sendable, Equatable {
        enum Storage: Equatable {
            case inMemory(String)
            case file(String)
        }
        let storage: Storage
        /// Model types registered (and their schemas checked) when the store opens. For a file
        /// store these are also the models a migration moves the stored data to.
        public var objectTypes: [any StoreObject.Type]
        /// The version of the models (file stores); raise it when a model changes.
        public var schemaVersion: UInt64 = 0
        /// Moves data written with an older ``schemaVersion`` to the current models.
        public var migration: ((Migration, _ oldSchemaVersion: UInt64) throws -> Void)?
        /// Delete the stored data instead of migrating it when a migration is needed.
        public var deleteIfMigrationNeeded = false
        /// Asked at open with the file's size and the size its live data needs; `true`
        /// compacts the file before the store is used.
        public var shouldCompactOnLaunch: ((_ totalBytes: Int, _ usedBytes: Int) -> Bool)?
        /// When a committed write has reached the disk.
        public var durability: Durability = .full
        /// When the store compacts its file while running.
        public var autoCompaction: AutoCompaction = .default

        /// The file of a file store; `nil` for an in-memory store.
        public var fileURL: URL? {
            if case .file(let path) = storage { return URL(fileURLWithPath: path) }
            return nil
        }

        /// The identifier of an in-memory store; `nil` for a file store.
        public var inMemoryIdentifier: String? {
            if case .inMemory(let identifier) = storage { return identifier }
            return nil
        }

        /// An in-memory store. Stores opened with the same identifier share their data while
        /// at least one of them is alive, as Realm's in-memory realms do.
        ///
        /// - Parameters:
        ///   - identifier: Names the shared in-memory data.
        ///   - objectTypes: Models whose schemas are checked when the store opens.
        /// - Returns: The configuration.
        public static func inMemory(identifier: String, objectTypes: [any StoreObject.Type] = []) -> Configuration {
            Configuration(storage: .inMemory(identifier), objectTypes: objectTypes)
        }

        /// A store kept in a file: every committed write is appended to it, and reopening the
        /// file (after a restart or a crash) restores exactly the committed writes.
        ///
        /// Stores opened on the same file in one process share one instance. The file is
        /// locked (`flock`) while open: another process opening it gets
        /// ``StoreError/fileLocked(path:)``. See `Guides/ObjectStore-FileFormat.md`.
        ///
        ///     let url = FileManager.default.temporaryDirectory.appendingPathComponent("pizzas.store")
        ///     let store = try Store(configuration: .file(url: url, objectTypes: [Pizza.self]))
        ///
        /// - Parameters:
        ///   - url: The file; created (with owner-only permissions, 0600) when missing.
        ///   - objectTypes: Models checked against the stored data when the store opens (list
        ///     every model so a changed one is caught at open rather than at first use).
        ///   - schemaVersion: The version of the models; raise it when a model changes.
        ///   - migration: Moves data from an older schema version (see ``Migration``).
        ///   - deleteIfMigrationNeeded: Discard the stored data instead of migrating it.
        ///   - shouldCompactOnLaunch: Given the file's size and the size of its live data,
        ///     whether to compact it at open.
        ///   - durability: `.full` (default): a `write` that returned is on disk. `.relaxed`:
        ///     no sync per commit (a killed process loses nothing, a power cut may lose the
        ///     latest commits, never part of one).
        ///   - autoCompaction: When the running store compacts its file.
        /// - Returns: The configuration.
        public static func file(
            url: URL,
            objectTypes: [any StoreObject.Type] = [],
            schemaVersion: UInt64 = 0,
            migration: ((Migration, _ oldSchemaVersion: UInt64) throws -> Void)? = nil,
            deleteIfMigrationNeeded: Bool = false,
            shouldCompactOnLaunch: ((_ totalBytes: Int, _ usedBytes: Int) -> Bool)? = nil,
            durability: Durability = .full,
            autoCompaction: AutoCompaction = .default
        ) -> Configuration {
            var configuration = Configuration(storage: .file(url.standardizedFileURL.path), objectTypes: objectTypes)
            configuration.schemaVersion = schemaVersion
            configuration.migration = migration
            configuration.deleteIfMigrationNeeded = deleteIfMigrationNeeded
            configuration.shouldCompactOnLaunch = shouldCompactOnLaunch
            configuration.durability = durability
            configuration.autoCompaction = autoCompaction
            return configuration
        }

        /// Two configurations are equal when they name the same data.
        public static func == (lhs: Configuration, rhs: Configuration) -> Bool { lhs.storage == rhs.storage }
    }

    /// When a committed write counts as stored.
    public enum Durability: Sendable, Equatable {
        /// Each commit is synced to the disk (`fdatasync`, `F_FULLFSYNC` on Apple platforms)
        /// before `write` returns.
        case full
        /// Commits are written but not synced one by one (for bulk imports): a killed process
        /// loses nothing, a power cut may lose the latest commits (never part of one).
        case relaxed
    }

    /// When a running file store rewrites its file as a compact snapshot.
    public struct AutoCompaction: Sendable, Equatable {
        /// Compact when the file is larger than this multiple of its size after the last
        /// compaction (0 never compacts automatically).
        public var logMultiple: Int
        /// …and larger than this many bytes.
        public var minimumBytes: Int

        /// Creates a policy.
        ///
        /// - Parameters:
        ///   - logMultiple: The growth factor that triggers a compaction (0: never).
        ///   - minimumBytes: The file size below which the store never compacts.
        public init(logMultiple: Int, minimumBytes: Int) {
            self.logMultiple = logMultiple
            self.minimumBytes = minimumBytes
        }

        /// Compact past 4× the compacted size and 1 MiB.
        public static let `default` = AutoCompaction(logMultiple: 4, minimumBytes: 1 << 20)
        /// Never compact automatically (``Store/compact()`` still works).
        public static let never = AutoCompaction(logMultiple: 0, minimumBytes: .max)
    }

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
        case .inMemory(let identifier): core = StoreCore.shared(identifier: identifier)
        case .file: core = try StoreCore.shared(file: configuration)
        }
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
    var _lastCommitLog: [ChangeRecord] { core.lock.withLock { core.lastCommitLog } }
}

/// Realm's name for the policy of ``Transaction/add(_:update:)``.
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

/// Receives every commit; returns the delivery to run after the commit, if any.
protocol CommitObserver: AnyObject {
    func committed(_ info: CommitInfo) -> (() -> Void)?
}

/// The shared state behind one or more ``Store`` handles.
final class StoreCore: @unchecked Sendable {
    let lock = Lock()                 // guards state, writer, observers, lastCommitLog
    private let writeLock = Lock()    // one writer at a time
    private let notifyLock = Lock()   // orders publication with observer registration
    private var state: Snapshot
    /// The file behind a file store (used with `writeLock` held).
    let file: StoreFile?
    private var writer: pthread_t?
    private var observers: [ObjectIdentifier: CommitObserver] = [:]
    var lastCommitLog: [ChangeRecord] = []
    private let deliveryLock = Lock()
    private var deliveries: [() -> Void] = []
    private var draining = false

    nonisolated(unsafe) private static var registry: [String: Weak] = [:]
    private static let registryLock = Lock()
    private static let fileOpenLock = RecursiveLock()
    private struct Weak { weak var core: StoreCore? }

    init(state: Snapshot = Snapshot(version: 0, tables: [:]), file: StoreFile? = nil) {
        self.state = state
        self.file = file
    }

    static func shared(identifier: String) -> StoreCore {
        registryLock.withLock {
            if let core = registry[identifier]?.core { return core }
            let core = StoreCore()
            registry[identifier] = Weak(core: core)
            registry = registry.filter { $0.value.core != nil }
            return core
        }
    }

    /// The core of a file store: the one already open on that file in this process, or a new
    /// one that opens (and locks) the file.
    static func shared(file configuration: Store.Configuration) throws -> StoreCore {
        guard case .file(let path) = configuration.storage else { preconditionFailure("not a file configuration") }
        var codeSchemas: [String: ObjectSchema] = [:]
        var pending = try configuration.objectTypes.map { try ObjectSchema.of($0) }
        while let schema = pending.popLast() {
            guard codeSchemas[schema.name] == nil else { continue }
            codeSchemas[schema.name] = schema
            for field in schema.fields {
                switch field.kind {
                case .link(let ref), .linkList(let ref): pending.append(ref.schema)
                default: break
                }
            }
        }
        let key = "file:" + path
        // Opens are serialised by their own (recursive) lock, not the registry's, so the user's
        // migration and shouldCompactOnLaunch closures may open other stores.
        return try fileOpenLock.withLock {
            if let core = registryLock.withLock({ registry[key]?.core }) { return core }
            let options = FileOptions(
                path: path, schemaVersion: configuration.schemaVersion, migration: configuration.migration,
                deleteIfMigrationNeeded: configuration.deleteIfMigrationNeeded,
                shouldCompactOnLaunch: configuration.shouldCompactOnLaunch,
                durability: configuration.durability, autoCompaction: configuration.autoCompaction)
            let (file, snapshot) = try StoreFile.open(options, codeSchemas: codeSchemas)
            let core = StoreCore(state: snapshot, file: file)
            registryLock.withLock {
                registry[key] = Weak(core: core)
                registry = registry.filter { $0.value.core != nil }
            }
            return core
        }
    }

    func compact() throws {
        guard let file else { return }
        if isWriterThread { throw StoreError.nestedWrite }
        writeLock.lock()
        defer { writeLock.unlock() }
        try file.compact(snapshot())
    }

    func snapshot() -> Snapshot { lock.withLock { state } }

    var isWriterThread: Bool {
        lock.withLock { writer.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    func write<Result>(_ block: (Transaction) throws -> Result) throws -> Result {
        if isWriterThread { throw StoreError.nestedWrite }
        writeLock.lock()
        lock.withLock { writer = pthread_self() }
        let result: Result
        let transaction = Transaction(core: self, base: snapshot())
        do {
            result = try block(transaction)
            transaction.close()
        } catch {
            transaction.close()
            lock.withLock { writer = nil }
            writeLock.unlock()
            throw error
        }
        if !transaction.log.isEmpty {
            if let file {
                // The commit reaches the file before anyone can see it; if it cannot, nothing changes.
                do {
                    try file.append(transaction.log, tables: transaction.tables, touched: transaction.changes.keys)
                } catch {
                    lock.withLock { writer = nil }
                    writeLock.unlock()
                    throw error
                }
            }
            publish(transaction)
            file?.compactIfDue(snapshot())
        }
        lock.withLock { writer = nil }
        writeLock.unlock()
        drain()
        return result
    }

    private func publish(_ transaction: Transaction) {
        var tables = transaction.tables
        for name in transaction.changes.keys { tables[name]?.compactIfNeeded() }
        notifyLock.lock()
        let old = snapshot()
        let new = Snapshot(version: old.version + 1, tables: tables)
        let current = lock.withLock { () -> [CommitObserver] in
            state = new
            lastCommitLog = transaction.log
            return Array(observers.values)
        }
        let info = CommitInfo(old: old, new: new, tables: transaction.changes.filter { !$0.value.isEmpty }, log: transaction.log)
        var actions: [() -> Void] = []
        for observer in current {
            if let action = observer.committed(info) { actions.append(action) }
        }
        enqueue(actions)
        notifyLock.unlock()
    }

    /// Registers an observer at the current version; `start` runs under the registration lock
    /// with that snapshot and returns the initial delivery.
    func register(_ observer: CommitObserver, start: (Snapshot) -> (() -> Void)?) {
        notifyLock.lock()
        let current = snapshot()
        lock.withLock { observers[ObjectIdentifier(observer)] = observer }
        if let action = start(current) { enqueue([action]) }
        notifyLock.unlock()
        drain()
    }

    func unregister(_ observer: CommitObserver) {
        lock.withLock { observers[ObjectIdentifier(observer)] = nil }
    }

    private func enqueue(_ actions: [() -> Void]) {
        guard !actions.isEmpty else { return }
        deliveryLock.withLock { deliveries.append(contentsOf: actions) }
    }

    /// Runs queued deliveries in commit order; one thread drains at a time.
    func drain() {
        deliveryLock.lock()
        if draining { deliveryLock.unlock(); return }
        draining = true
        while !deliveries.isEmpty {
            let batch = deliveries
            deliveries.removeAll()
            deliveryLock.unlock()
            for action in batch { action() }
            deliveryLock.lock()
        }
        draining = false
        deliveryLock.unlock()
    }
}
