#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The package's mutual-exclusion lock: non-recursive, over `pthread_mutex_t`.
///
/// Every module of the package uses this one lock (and ``Locked`` for a value guarded by it)
/// instead of `NSLock` or a module's own wrapper. It is used where a `Synchronization.Mutex`
/// would force `sending` results on callers (and `Mutex` on Linux costs twice as much per
/// lock and unlock). Never call out to user code while holding it: decide under the lock, act
/// after it.
///
/// The mutex lives in the tail of one object (``LockStorage``): a lock is one allocation.
package struct Lock: @unchecked Sendable {
    private let storage: LockStorage

    package init() {
        storage = LockStorage.make(spinning: false)
    }

    /// A lock that a thread finding it taken spins on for a moment (glibc's adaptive mutex, on
    /// Linux) before it sleeps: for a lock two busy threads take many times a second, each for
    /// microseconds, where a waiter put to sleep must then be woken, and waking it can hand the
    /// processor to it (milliseconds for the waker, on a loaded machine) for a wait far
    /// shorter than that.
    package init(spinning: Bool) {
        storage = LockStorage.make(spinning: spinning)
    }

    @inline(__always)
    package func lock() { storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_lock($0) } }

    @inline(__always)
    package func unlock() { storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_unlock($0) } }

    @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// The object behind a ``Lock``: a `pthread_mutex_t` in its tail, at a stable address.
final class LockStorage: ManagedBuffer<Void, pthread_mutex_t> {
    static func make(spinning: Bool) -> LockStorage {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in () }, to: LockStorage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            #if canImport(Glibc)
            if spinning {
                var attributes = pthread_mutexattr_t()
                pthread_mutexattr_init(&attributes)
                pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
                _ = pthread_mutex_init(mutex, &attributes)
                pthread_mutexattr_destroy(&attributes)
                return
            }
            #endif
            _ = pthread_mutex_init(mutex, nil)
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            _ = pthread_mutex_destroy(mutex)
            _ = mutex.deinitialize(count: 1)
        }
    }
}

/// A recursive lock: the owning thread may take it again. Used where a re-entrant call on the
/// same thread must not deadlock (a connection that a subscriber re-enters, the main
/// scheduler's drain, a store opened from inside another open).
package final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    package func lock() { pthread_mutex_lock(mutex) }

    @inline(__always)
    package func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value guarded by the package's ``Lock``: the one locked box of the package.
///
/// Read and change the value only inside ``withLock(_:)``, and never call out to user code or
/// observers there: take what you need out under the lock, act after it.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
