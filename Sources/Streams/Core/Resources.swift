import Synchronization

/// Counts live subscriptions, so tests can prove that everything was released.
///
/// Every sink, subject subscription and closure observer adds one while it is alive. After all
/// subscriptions of a test are disposed (and their objects deallocated), ``total`` is back to
/// the value it had before: anything else is a leak. The counter is always on.
public enum Resources {
    private static let counter = Atomic<Int>(0)

    /// The number of subscription resources alive right now (an `Int32`, as RxSwift's, so
    /// resource checks written for it compile unchanged).
    public static var total: Int32 { Int32(truncatingIfNeeded: counter.load(ordering: .relaxed)) }

    /// Adds one to ``total``; for types outside `Streams` that hold a subscription's resources.
    ///
    /// - Returns: The new total.
    @discardableResult
    public static func incrementTotal() -> Int32 { Int32(truncatingIfNeeded: counter.add(1, ordering: .relaxed).newValue) }

    /// Removes one from ``total``; pairs with ``incrementTotal()``.
    ///
    /// - Returns: The new total.
    @discardableResult
    public static func decrementTotal() -> Int32 { Int32(truncatingIfNeeded: counter.subtract(1, ordering: .relaxed).newValue) }

    private static let serialObserveOnCounter = Atomic<Int>(0)

    /// The number of live `observe(on:)` sequences that deliver through a serial scheduler's
    /// queue (``SerialDispatchQueueScheduler`` or ``MainScheduler``), subscribed or not:
    /// RxSwift's check that the serial implementation was chosen.
    public static var numberOfSerialDispatchQueueObservables: Int32 {
        Int32(truncatingIfNeeded: serialObserveOnCounter.load(ordering: .relaxed))
    }

    static func serialObserveOnStarted() { serialObserveOnCounter.add(1, ordering: .relaxed) }

    static func serialObserveOnEnded() { serialObserveOnCounter.subtract(1, ordering: .relaxed) }

    @inline(__always)
    static func increment() { counter.add(1, ordering: .relaxed) }

    @inline(__always)
    static func decrement() { counter.subtract(1, ordering: .relaxed) }
}
