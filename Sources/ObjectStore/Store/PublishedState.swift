#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every thread reads of a store: the committed snapshot readers start from, the thread
/// writing (if any), the commit observers and the last commit's log.
///
/// One lock, a leaf of ``StoreCore``'s lock order and the one readers take: each call holds it
/// for a few loads and stores, and what a call replaces is freed after it is released.
final class PublishedState: @unchecked Sendable {
    private let lock = StoreLock(.leaf)
    private var state: Snapshot
    private var writer: pthread_t?
    private var observers: [ObjectIdentifier: CommitObserver] = [:]
    private var log: [ChangeRecord] = []

    /// State that starts at `snapshot`.
    init(_ snapshot: Snapshot) {
        state = snapshot
    }

    /// The committed snapshot readers see now.
    func snapshot() -> Snapshot { lock.withLock { state } }

    /// Whether the calling thread is the one writing.
    var isWriterThread: Bool {
        lock.withLock { writer.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Records the calling thread as the writer (`true`) or that nobody writes (`false`).
    func setWriting(_ writing: Bool) {
        lock.withLock { writer = writing ? pthread_self() : nil }
    }

    /// The records of the last commit (for tests).
    var lastCommitLog: [ChangeRecord] { lock.withLock { log } }

    /// Puts `new` in place of the published snapshot and `log` in place of the last commit's
    /// log (`log` then holds the replaced one, for the caller to free after the lock);
    /// returns the observers to tell.
    func publish(_ new: Snapshot, log: inout [ChangeRecord]) -> [CommitObserver] {
        lock.withLock {
            state = new
            swap(&self.log, &log)
            return Array(observers.values)
        }
    }

    /// Puts `snapshot` in place of the published one; returns the one it replaced.
    func replace(with snapshot: Snapshot) -> Snapshot {
        lock.withLock {
            let old = state
            state = snapshot
            return old
        }
    }

    /// Adds `observer` to those told of each commit.
    func add(_ observer: CommitObserver) {
        lock.withLock { observers[ObjectIdentifier(observer)] = observer }
    }

    /// Removes `observer` from those told of each commit.
    func remove(_ observer: CommitObserver) {
        lock.withLock { observers[ObjectIdentifier(observer)] = nil }
    }

    /// The registered observer of type `T`, if any.
    func observer<T: CommitObserver>(ofType type: T.Type) -> T? {
        lock.withLock { observers.values.lazy.compactMap { $0 as? T }.first }
    }
}
