import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each of the store's locks stands in the order of ``StoreCore`` (its doc comment has
/// the order and why): a thread holding a lock may take only a lock of a higher rank.
///
/// Two ranks let a thread take a second lock of the same rank: `fileOpen`, whose one lock is
/// recursive (a migration opens another store), and `write`, whose locks belong to different
/// stores (a write block may write another store; which store comes first is the app's order,
/// as with GRDB's nested writes to two databases). The four leaves share the last rank, so none
/// of them is taken with another store lock of that rank held.
enum StoreLockRank: Int, Comparable, Sendable {
    /// ``FileStoreOpener``'s lock: one file store opens at a time.
    case fileOpen
    /// ``StoreCore``'s write lock: one writer (or compaction) at a time.
    case write
    /// ``CommitPublisher``'s lock: orders publishing a commit with registering an observer.
    case publication
    /// A leaf (``PublishedState``, ``CommitDeliveries``, ``StoreRegistry``, a ``PagedFile``'s
    /// cache): held for a few loads and stores, with no other store lock taken under it.
    case leaf

    static func < (lhs: StoreLockRank, rhs: StoreLockRank) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Why taking a lock of rank `taken` with locks of the ranks `held` (innermost last) breaks
    /// the order, or `nil` when it keeps it.
    ///
    ///     StoreLockRank.violation(taking: .publication, holding: [.write])   // nil
    ///     StoreLockRank.violation(taking: .write, holding: [.publication])
    ///     // "store lock order broken: took write with publication held (held: publication)"
    static func violation(taking taken: StoreLockRank, holding held: [StoreLockRank]) -> String? {
        guard let innermost = held.max() else { return nil }
        if taken > innermost { return nil }
        if taken == innermost, taken == .fileOpen || taken == .write { return nil }
        // An open in a write block: allowed, as two stores' writes nest (see StoreCore).
        if taken == .fileOpen, innermost == .write { return nil }
        let list = held.map { "\($0)" }.joined(separator: ", ")
        return "store lock order broken: took \(taken) with \(innermost) held (held: \(list)); see StoreCore's lock order"
    }
}

/// The package's ``Lock`` with its rank in the store's lock order (see ``StoreCore``), which
/// debug builds check each time the lock is taken: taking it out of order stops the program
/// with a message naming both locks, before it can deadlock. Release builds compile the check
/// out; the type is then a `Lock` and its calls are the lock's own.
struct StoreLock: Sendable {
    private let base: Lock
    #if DEBUG
    private let rank: StoreLockRank
    #endif

    /// A lock of `rank`; `spinning` as in ``Lock/init(spinning:)``.
    init(_ rank: StoreLockRank, spinning: Bool = false) {
        base = Lock(spinning: spinning)
        #if DEBUG
        self.rank = rank
        #endif
    }

    /// Takes the lock (in debug builds, after checking the order).
    @inline(__always)
    func lock() {
        #if DEBUG
        HeldStoreLocks.willTake(rank)
        #endif
        base.lock()
    }

    /// Releases the lock.
    @inline(__always)
    func unlock() {
        base.unlock()
        #if DEBUG
        HeldStoreLocks.didRelease(rank)
        #endif
    }

    /// Runs `body` with the lock held.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// The package's ``RecursiveLock`` with its rank in the store's lock order, checked like
/// ``StoreLock``'s (taking it again on the thread that holds it keeps the order).
struct RecursiveStoreLock: Sendable {
    private let base = RecursiveLock()
    #if DEBUG
    private let rank: StoreLockRank
    #endif

    /// A recursive lock of `rank`.
    init(_ rank: StoreLockRank) {
        #if DEBUG
        self.rank = rank
        #endif
    }

    /// Runs `body` with the lock held (in debug builds, after checking the order).
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if DEBUG
        HeldStoreLocks.willTake(rank)
        defer { HeldStoreLocks.didRelease(rank) }
        #endif
        return try base.withLock(body)
    }
}

#if DEBUG
/// The ranks of the store locks the current thread holds, in the order it took them (debug
/// builds only): what ``StoreLock`` checks a new lock against. Kept per thread under a
/// `pthread` key, so checking costs no lock of its own.
final class HeldStoreLocks {
    /// The ranks held, innermost last.
    private(set) var ranks: [StoreLockRank] = []

    /// The key under which each thread keeps its own list (freed when the thread ends).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { pointer in
            let raw: UnsafeMutableRawPointer? = pointer
            if let raw { Unmanaged<HeldStoreLocks>.fromOpaque(raw).release() }
        }
        precondition(made == 0, "no pthread key left for the store's lock order check")
        return key
    }()

    /// The current thread's list, made the first time the thread takes a store lock.
    static var current: HeldStoreLocks {
        if let raw = pthread_getspecific(key) { return Unmanaged<HeldStoreLocks>.fromOpaque(raw).takeUnretainedValue() }
        let held = HeldStoreLocks()
        pthread_setspecific(key, Unmanaged.passRetained(held).toOpaque())
        return held
    }

    /// Checks that a lock of `rank` may be taken now, and records it as held; a broken order
    /// stops the program, naming the locks.
    static func willTake(_ rank: StoreLockRank) {
        let held = current
        if let violation = StoreLockRank.violation(taking: rank, holding: held.ranks) { preconditionFailure(violation) }
        held.ranks.append(rank)
    }

    /// Records that a lock of `rank` was released (the last one taken of that rank: locks may
    /// be released in another order than they were taken).
    static func didRelease(_ rank: StoreLockRank) {
        let held = current
        if let index = held.ranks.lastIndex(of: rank) { held.ranks.remove(at: index) }
    }
}
#endif
