/// The deliveries commits and registrations queue for their observers, run by one thread at a
/// time in the order they were queued (``drain()``).
///
/// This is the claim–queue–drain protocol of Streams' `DeliveryQueue`, written out here
/// because the store's storage code does not import Streams, and the queue cannot move to
/// `Locking` for both to share: the toolchain does not inline a `package` type's members into
/// another module, even `@inlinable` or `@_alwaysEmitIntoClient` ones (a release build calls
/// `claim()`, `hasItems` and `finishIfEmpty()` out of line from every serialising sink), and a
/// `public` type would break `Locking`'s rule of `package` symbols only. Streams' per-element
/// paths would pay three calls per event for twelve lines shared here.
///
/// One lock, a leaf of ``StoreCore``'s lock order: ``enqueue(_:)`` takes it with the
/// publication lock held, and nothing is run under it.
final class CommitDeliveries: @unchecked Sendable {
    private let lock = StoreLock(.leaf)
    private var deliveries: [() -> Void] = []
    private var draining = false

    /// Queues `actions` after what is queued already (they run at the next ``drain()``).
    func enqueue(_ actions: [() -> Void]) {
        guard !actions.isEmpty else { return }
        lock.withLock { deliveries.append(contentsOf: actions) }
    }

    /// Runs queued deliveries in commit order; one thread drains at a time, and a thread that
    /// finds another draining leaves what it queued to that one.
    func drain() {
        lock.lock()
        if draining { lock.unlock(); return }
        draining = true
        while !deliveries.isEmpty {
            let batch = deliveries
            deliveries.removeAll()
            lock.unlock()
            for action in batch { action() }
            lock.lock()
        }
        draining = false
        lock.unlock()
    }
}
