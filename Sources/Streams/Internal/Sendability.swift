import Synchronization

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
/// library guarantees by other means (a lock, or a serial scheduler). The package's only
/// unchecked-`Sendable` box.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}

/// Hands a value over as `sending` where the library guarantees by other means that the caller
/// keeps no access to it (an element passed on to a stream or a continuation and never touched
/// again by the library).
@inline(__always)
func assumeSending<Value>(_ value: Value) -> sending Value {
    nonisolated(unsafe) let handedOver = value
    return handedOver
}
