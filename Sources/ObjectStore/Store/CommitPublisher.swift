/// Receives every commit; returns the delivery to run after the commit, if any.
protocol CommitObserver: AnyObject {
    /// Told of `commit` with the publication lock held (so in commit order, and never at the
    /// same time as a registration); does no more than decide, and returns what to deliver.
    func committed(_ commit: CommitChanges) -> (() -> Void)?
}

/// Publishes a store's commits to readers and observers, in order with observers registering:
/// an observer registers at one version and is told of every commit after it, none twice.
///
/// One lock, after the write lock in ``StoreCore``'s lock order: with it held, the published
/// state is swapped (``PublishedState``'s lock), the observers decide what to deliver, and
/// the deliveries are queued (``CommitDeliveries``' lock); they run after it is released.
final class CommitPublisher: @unchecked Sendable {
    private let lock = StoreLock(.publication)
    /// The snapshot readers see and the observers told of commits.
    let state: PublishedState
    /// Where the observers' deliveries wait to run.
    let deliveries: CommitDeliveries

    /// A publisher of `state`'s commits whose deliveries wait in `deliveries`.
    init(state: PublishedState, deliveries: CommitDeliveries) {
        self.state = state
        self.deliveries = deliveries
    }

    /// Publishes what `transaction` changed as the next version and tells the observers
    /// (with the write lock held); returns the snapshot it replaced. The deliveries are queued,
    /// not run.
    func publish(_ transaction: Transaction) -> Snapshot {
        var tables = transaction.tables
        for name in transaction.changes.keys { tables[name]?.compactIfNeeded() }
        // Every table changed here (whether or not it has changes to report) gets a fresh box
        // for the indexes derived from its new rows.
        for name in tables.keys where tables[name]!.derived == nil { tables[name]!.seal() }
        lock.lock()
        let version = state.snapshot().version + 1
        let new = Snapshot(version: version, tables: tables)
        // Publishing is a pointer swap under the lock readers take for `snapshot()`; the
        // snapshot it replaces comes back held, so it is not freed there.
        let (old, current) = state.publish(new)
        let info = CommitChanges(old: old, new: new, tables: transaction.changes.filter { !$0.value.isEmpty }, log: transaction.log)
        var actions: [() -> Void] = []
        for observer in current {
            if let action = observer.committed(info) { actions.append(action) }
        }
        deliveries.enqueue(actions)
        lock.unlock()
        return old
    }

    /// Puts the snapshot a compaction wrote (the same commit, read from the new file) in place
    /// of the current one, in order with registrations (with the write lock held); returns the
    /// one it replaced. Observers are not told: nothing changed.
    func move(to compacted: Snapshot) -> Snapshot {
        lock.withLock { state.replace(with: compacted) }
    }

    /// Registers an observer at the current version; `start` runs under the publication lock
    /// with that snapshot and returns the initial delivery, which runs (with any other queued)
    /// before this returns, unless another thread is draining.
    func register(_ observer: CommitObserver, start: (Snapshot) -> (() -> Void)?) {
        lock.lock()
        let current = state.snapshot()
        state.add(observer)
        if let action = start(current) { deliveries.enqueue([action]) }
        lock.unlock()
        deliveries.drain()
    }

    /// Runs `body` with the current snapshot, ordered with commits: no commit is published
    /// while it runs, so an observer that re-reads here misses none and sees none twice.
    func atCurrentVersion<R>(_ body: (Snapshot) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(state.snapshot())
    }
}
