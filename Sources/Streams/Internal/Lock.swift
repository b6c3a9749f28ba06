#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A non-recursive mutual-exclusion lock over `pthread_mutex_t`.
///
/// Used where a ``Synchronization/Mutex`` would force `sending` results on callers. Never call
/// out to user code while holding it: decide under the lock, act after it.
final class SpinLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    func lock() { pthread_mutex_lock(mutex) }

    @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A recursive lock: the owning thread may take it again. Used by sinks that must serialise
/// several sources onto one observer while allowing re-entrant delivery on the same thread.
final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
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
    func lock() { pthread_mutex_lock(mutex) }

    @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A flag that can be set once, atomically. Stored inline in its owner (no allocation of its
/// own): declare it as a `let` property.
@usableFromInline
struct AtomicFlag: ~Copyable, @unchecked Sendable {
    @usableFromInline
    let value = Atomic<Bool>(false)

    @inlinable
    init() {}

    /// `true` once ``setOnce()`` has been called.
    @inlinable @inline(__always)
    var isSet: Bool { value.load(ordering: .acquiring) }

    /// Sets the flag; returns `true` only for the call that changed it.
    @inlinable @inline(__always)
    func setOnce() -> Bool {
        !value.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// A box that lets a non-`Sendable` value cross an isolation boundary whose safety the
/// library guarantees by other means (a lock, or a serial scheduler).
struct UncheckedSendable<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Hands a value over as `sending` where the library guarantees by other means that the caller
/// keeps no access to it (an element passed on to a stream or a continuation and never touched
/// again by the library).
@inline(__always)
func assumeSending<Value>(_ value: Value) -> sending Value {
    nonisolated(unsafe) let handedOver = value
    return handedOver
}
