#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every thread reads of a store: the committed snapshot readers start from, the thread
/// writing (if any) and the commit observers.
///
/// One lock, a leaf of ``StoreCore``'s lock order and the one readers take: each call holds it
/// for a few loads and stores, and frees nothing under it. What a call replaces is handed back
/// to the caller rather than dropped here: a value dropped in a locked region may be freed in
/// it, wherever the source's last line names it, because a release build ends a value's
/// lifetime at its last use. A commit's log (a record per object it changed) once was: with
/// the previous log swapped out here and its variable emptied after the unlock, the optimizer
/// freed its 100,000 records with this lock held, and a reader's `snapshot()` waited 100 ms.
final class PublishedState: @unchecked Sendable {
    private let lock = StoreLock(.leaf)
    private var state: Snapshot
    private var writer: pthread_t?
    private var observers: [ObjectIdentifier: CommitObserver] = [:]

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

    /// Puts `new` in place of the published snapshot; returns the one it replaced (still held,
    /// so not freed here) and the observers to tell.
    func publish(_ new: Snapshot) -> (replaced: Snapshot, observers: [CommitObserver]) {
        lock.withLock {
            let old = state
            state = new
            return (old, Array(observers.values))
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
