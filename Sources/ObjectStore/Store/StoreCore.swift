import Foundation

/// The shared state behind one or more ``Store`` handles on the same identifier or file: the
/// write path (one writer at a time, the commit appended to the file, then published) and
/// compaction, over the parts that each do one job with one lock or none.
///
/// | part | job | lock |
/// | --- | --- | --- |
/// | ``StoreRegistry`` | the open stores, by identifier or path | leaf |
/// | ``FileStoreOpener`` | opening a file store (migrating, compacting at launch) | `fileOpen` (recursive) |
/// | `StoreCore` | writing and compacting | `write` |
/// | ``CommitPublisher`` | publishing commits, in order with observers registering | `publication` |
/// | ``PublishedState`` | the snapshot readers see, the writer's thread, the observers | leaf |
/// | ``CommitDeliveries`` | running observers' deliveries, in commit order | leaf |
/// | ``RetiredSnapshots`` | freeing replaced snapshots on the writer's thread | none (write lock held) |
/// | ``PagedFile`` | a file's page cache | leaf |
///
/// ## Lock order
///
/// A thread takes the store's locks only in this order, and may skip any:
///
///     writeQueue ─▶ fileOpen ─▶ write ─▶ publication ─▶ one leaf
///
/// - `writeQueue` (a serial dispatch queue, not a lock) runs the asynchronous writes; each
///   takes the write lock like a synchronous write. Nothing waits for it (`sync`) holding a
///   store lock.
/// - `fileOpen` is held through a file store's open, which runs the app's migration and
///   `shouldCompactOnLaunch` closures: they may open other stores (the lock is recursive),
///   read and write them. One exception to the order: a write block may open a file store
///   (the open lock under a write lock), as it may write another store. Opening a store that
///   is already open takes no open lock; opening a new file in a write block of store A,
///   while another thread's migration writes A, is the one cycle this leaves, and the app's
///   to avoid, like two stores' writes nested both ways.
/// - `write` is held through a write block and a compaction. A write block may read, observe
///   and write another store: the locks of two stores' writers then nest, in the app's order.
/// - `publication` is held while a commit is published and its observers decide what to
///   deliver, while an observer registers, and through ``atCurrentVersion(_:)``; nothing
///   under it writes.
/// - The leaves (``PublishedState``, ``CommitDeliveries``, ``StoreRegistry``, each
///   ``PagedFile``'s cache) are held for a few loads and stores; no store lock is taken under
///   one, so no two are held at once. Deliveries and the app's closures run under none of them.
///
/// The order is ``StoreLockRank``'s; debug builds check it each time a ``StoreLock`` is taken
/// (`LockOrderTests` breaks it on purpose), release builds take plain locks.
final class StoreCore: @unchecked Sendable {
    /// One writer (or compaction) at a time.
    private let writeLock = StoreLock(.write)
    /// Runs the asynchronous writes (`writeAsync`, `await write`, `rx.write`) one at a time, in
    /// the order they were asked for; each still takes `writeLock` like a synchronous write.
    let writeQueue = DispatchQueue(label: "ObjectStore.writer", qos: .userInitiated)
    /// The snapshot readers see, the writer's thread and the observers.
    let state: PublishedState
    /// Publishes commits and registers observers.
    private let publisher: CommitPublisher
    /// The observers' deliveries, waiting to run.
    private let deliveries = CommitDeliveries()
    /// Snapshots a commit or a compaction replaced (touched with `writeLock` held).
    private var retired = RetiredSnapshots()
    /// The file behind a file store (used with `writeLock` held).
    let file: StoreFile?
    /// The records of the last commit, kept for tests (touched with `writeLock` held, so the
    /// log a commit replaces is freed on the writer's thread with no lock a reader takes).
    private var lastLog: [ChangeRecord] = []

    /// A core that starts at `state`, writing to `file` if it has one.
    init(state: Snapshot = Snapshot(version: 0, tables: [:]), file: StoreFile? = nil) {
        self.state = PublishedState(state)
        self.file = file
        publisher = CommitPublisher(state: self.state, deliveries: deliveries)
    }

    /// Writes the current commit to a new file of only its live records and moves to it.
    ///
    /// - Throws: ``StoreError/nestedWrite`` inside a write block, ``StoreError/readOnly(path:)``,
    ///   or what writing the new file throws (the store then stays on the old one).
    func compact() throws {
        guard let file else { return }
        if isWriterThread { throw StoreError.nestedWrite }
        if file.readOnly { throw StoreError.readOnly(path: file.path) }
        writeLock.lock()
        defer { writeLock.unlock() }
        move(to: try file.compact(snapshot()))
        retired.sweep()
    }

    /// Puts the snapshot a compaction just wrote in place of the current one (write lock
    /// held). Readers holding the older snapshot keep reading it; its pages are no longer
    /// cached, so it costs only what it held in memory.
    private func move(to compacted: Snapshot) {
        let old = publisher.move(to: compacted)
        var files: [ObjectIdentifier: PagedFile] = [:]
        for table in old.tables.values {
            if let file = table.base?.file { files[ObjectIdentifier(file)] = file }
        }
        for table in compacted.tables.values {
            if let file = table.base?.file { files[ObjectIdentifier(file)] = nil }
        }
        for file in files.values { file.dropCache() }
        retired.retire(old)
    }

    /// How many replaced snapshots are kept for the writer to free.
    var retiredCount: Int { writeLock.withLock { retired.count } }

    /// The records of the last commit (for tests; not from inside a write block).
    var lastCommitLog: [ChangeRecord] { writeLock.withLock { lastLog } }

    /// The committed snapshot readers see now.
    func snapshot() -> Snapshot { state.snapshot() }

    /// Whether the calling thread is in a write block of this store.
    var isWriterThread: Bool { state.isWriterThread }

    /// Runs `block` in a transaction and commits what it changed, then runs the deliveries
    /// the commit queued.
    ///
    /// - Throws: ``StoreError/nestedWrite`` inside a write block of this store,
    ///   ``StoreError/readOnly(path:)``, the damage found in the file, what writing the commit
    ///   throws, or what `block` throws (nothing is committed then).
    func write<Result>(_ block: (Transaction) throws -> Result) throws -> Result {
        if isWriterThread { throw StoreError.nestedWrite }
        if let file, file.readOnly { throw StoreError.readOnly(path: file.path) }
        // A page of the file found damaged after it was opened: nothing more is written on top.
        if let damage = file?.damage.error { throw damage }
        let result: Result
        do {
            writeLock.lock()
            state.setWriting(true)
            defer {
                state.setWriting(false)
                writeLock.unlock()
            }
            // Snapshots that deliveries or readers held at the end of the last write.
            retired.sweep()
            result = try runAndCommit(block)
            // The transaction (which held the snapshot it started from) is gone now.
            retired.sweep()
        }
        deliveries.drain()
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
            retired.retire(publisher.publish(transaction))
            lastLog = transaction.log
            if let compacted = file?.compactIfDue(snapshot()) { move(to: compacted) }
        }
        return result
    }

    /// Registers an observer at the current version; `start` runs under the publication lock
    /// with that snapshot and returns the initial delivery (see ``CommitPublisher``).
    func register(_ observer: CommitObserver, start: (Snapshot) -> (() -> Void)?) {
        publisher.register(observer, start: start)
    }

    /// Runs `body` with the current snapshot, ordered with commits: no commit is published
    /// while it runs, so an observer that re-reads here misses none and sees none twice.
    func atCurrentVersion<R>(_ body: (Snapshot) -> R) -> R {
        publisher.atCurrentVersion(body)
    }

    /// Stops telling `observer` of commits.
    func unregister(_ observer: CommitObserver) { state.remove(observer) }

    /// The registered observer of type `T`, if any (lets tests see that disposal unregistered).
    func observerForTesting<T: CommitObserver>(_ type: T.Type) -> T? { state.observer(ofType: type) }
}
