import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives every commit; returns the delivery to run after the commit, if any.
protocol CommitObserver: AnyObject {
    func committed(_ commit: CommitChanges) -> (() -> Void)?
}

/// The shared state behind one or more ``Store`` handles.
///
/// Commit deliveries are queued under `deliveryLock` and run by one thread at a time in commit
/// order (`drain()`): the claim–queue–drain protocol of Streams' `DeliveryQueue`, written out
/// here because the store's storage code does not import Streams, and the queue cannot move to
/// `Locking` for both to share: the toolchain does not inline a `package` type's members into
/// another module, even `@inlinable` or `@_alwaysEmitIntoClient` ones (a release build calls
/// `claim()`, `hasItems` and `finishIfEmpty()` out of line from every serialising sink), and a
/// `public` type would break `Locking`'s rule of `package` symbols only. Streams' per-element
/// paths would pay three calls per event for twelve lines shared here.
final class StoreCore: @unchecked Sendable {
    let lock = Lock()                 // guards state, writer, observers, lastCommitLog
    private let writeLock = Lock()    // one writer at a time
    /// Runs the asynchronous writes (`writeAsync`, `await write`, `rx.write`) one at a time, in
    /// the order they were asked for; each still takes `writeLock` like a synchronous write.
    let writeQueue = DispatchQueue(label: "ObjectStore.writer", qos: .userInitiated)
    private let notifyLock = Lock()   // orders publication with observer registration
    /// Snapshots a commit or a compaction replaced, kept until nothing else holds them, so
    /// that the writer frees them (see ``retire(_:)``); touched with `writeLock` held.
    private var retired: [Snapshot] = []
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
        let key = (configuration.readOnly ? "file-read-only:" : "file:") + path
        // Opens are serialised by their own (recursive) lock, not the registry's, so the user's
        // migration and shouldCompactOnLaunch closures may open other stores.
        return try fileOpenLock.withLock {
            if let core = registryLock.withLock({ registry[key]?.core }) { return core }
            let options = FileOptions(
                path: path, schemaVersion: configuration.schemaVersion, migration: configuration.migration,
                deleteIfMigrationNeeded: configuration.deleteIfMigrationNeeded,
                shouldCompactOnLaunch: configuration.shouldCompactOnLaunch,
                durability: configuration.durability, autoCompaction: configuration.autoCompaction,
                readOnly: configuration.readOnly, cacheBudget: configuration.pageCacheBudget,
                fileSystem: configuration.fileSystem)
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
        if file.readOnly { throw StoreError.readOnly(path: file.path) }
        writeLock.lock()
        defer { writeLock.unlock() }
        move(to: try file.compact(snapshot()))
        sweepRetired()
    }

    /// Puts the snapshot a compaction just wrote (the same commit, read from the new file) in
    /// place of the current one (write lock held). Readers holding the older snapshot keep
    /// reading it; its pages are no longer cached, so it costs only what it held in memory.
    private func move(to compacted: Snapshot) {
        notifyLock.lock()
        let old = lock.withLock { () -> Snapshot in
            let old = state
            state = compacted
            return old
        }
        notifyLock.unlock()
        var files: [ObjectIdentifier: PagedFile] = [:]
        for table in old.tables.values {
            if let file = table.base?.file { files[ObjectIdentifier(file)] = file }
        }
        for table in compacted.tables.values {
            if let file = table.base?.file { files[ObjectIdentifier(file)] = nil }
        }
        for file in files.values { file.dropCache() }
        retire(old)
    }

    /// The most replaced snapshots kept for the writer to free; past it, the oldest is let go
    /// (whoever holds it last frees it).
    static let retiredLimit = 8

    /// Keeps a snapshot the store no longer publishes, so that its memory is freed by the
    /// writer rather than by the reader that happens to let go of it last: the rows and
    /// changes a commit of 100,000 objects replaced are millions of blocks, and a reader
    /// freeing them would spend milliseconds on it, in the allocator of the writer's thread,
    /// waiting for the writer each time the writer holds that allocator's lock. With
    /// `writeLock` held.
    private func retire(_ snapshot: Snapshot) {
        retired.append(snapshot)
        if retired.count > Self.retiredLimit { retired.removeFirst() }
    }

    /// How many replaced snapshots are kept for the writer to free.
    var retiredCount: Int { writeLock.withLock { retired.count } }

    /// Frees the replaced snapshots no reader holds any more (with `writeLock` held). A
    /// snapshot held only here cannot be taken again: the store no longer hands it out.
    private func sweepRetired() {
        var i = 0
        while i < retired.count {
            if isKnownUniquelyReferenced(&retired[i]) {
                retired.remove(at: i)
            } else {
                i += 1
            }
        }
    }

    func snapshot() -> Snapshot { lock.withLock { state } }

    var isWriterThread: Bool {
        lock.withLock { writer.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    func write<Result>(_ block: (Transaction) throws -> Result) throws -> Result {
        if isWriterThread { throw StoreError.nestedWrite }
        if let file, file.readOnly { throw StoreError.readOnly(path: file.path) }
        // A page of the file found damaged after it was opened: nothing more is written on top.
        if let damage = file?.damage.error { throw damage }
        let result: Result
        do {
            writeLock.lock()
            lock.withLock { writer = pthread_self() }
            defer {
                lock.withLock { writer = nil }
                writeLock.unlock()
            }
            // Snapshots that deliveries or readers held at the end of the last write.
            sweepRetired()
            result = try runAndCommit(block)
            // The transaction (which held the snapshot it started from) is gone now.
            sweepRetired()
        }
        drain()
        return result
    }

    /// Runs `block` in a transaction and commits what it changed (with `writeLock` held).
    private func runAndCommit<Result>(_ block: (Transaction) throws -> Result) throws -> Result {
        let transaction = Transaction(core: self, base: snapshot())
        let result: Result
        do {
            defer { transaction.close() }
            result = try block(transaction)
        }
        if !transaction.log.isEmpty {
            // Damage found while the block read: the commit is not written.
            if let damage = file?.damage.error { throw damage }
            // The commit reaches the file before anyone can see it; if it cannot, nothing changes.
            try file?.append(transaction.log, tables: transaction.tables, touched: transaction.changes.keys)
            publish(transaction)
            if let compacted = file?.compactIfDue(snapshot()) { move(to: compacted) }
        }
        return result
    }

    private func publish(_ transaction: Transaction) {
        var tables = transaction.tables
        for name in transaction.changes.keys { tables[name]?.compactIfNeeded() }
        // Every table changed here (whether or not it has changes to report) gets a fresh box
        // for the indexes derived from its new rows.
        for name in tables.keys where tables[name]!.derived == nil { tables[name]!.seal() }
        notifyLock.lock()
        let old = snapshot()
        let new = Snapshot(version: old.version + 1, tables: tables)
        // Publishing is two pointer swaps under the lock readers take for `snapshot()`; what
        // they replace (the previous commit's log: a record per object it changed) is freed
        // after the lock is released, so no reader waits while it is.
        var replacedLog = transaction.log
        let current = lock.withLock { () -> [CommitObserver] in
            state = new
            swap(&lastCommitLog, &replacedLog)
            return Array(observers.values)
        }
        replacedLog = []
        let info = CommitChanges(old: old, new: new, tables: transaction.changes.filter { !$0.value.isEmpty }, log: transaction.log)
        var actions: [() -> Void] = []
        for observer in current {
            if let action = observer.committed(info) { actions.append(action) }
        }
        enqueue(actions)
        notifyLock.unlock()
        retire(old)
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

    /// Runs `body` with the current snapshot, ordered with commits: no commit is published
    /// while it runs, so an observer that re-reads here misses none and sees none twice.
    func atCurrentVersion<R>(_ body: (Snapshot) -> R) -> R {
        notifyLock.lock()
        defer { notifyLock.unlock() }
        return body(snapshot())
    }

    /// The registered observer of type `T`, if any (lets tests see that disposal unregistered).
    func observerForTesting<T: CommitObserver>(_ type: T.Type) -> T? {
        lock.withLock { observers.values.lazy.compactMap { $0 as? T }.first }
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
