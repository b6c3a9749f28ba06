import Locking
/// A sink for operators driven by a source and by timers (or a second source) on possibly
/// different threads, whose decisions and emissions must stay in one order.
///
/// A subclass changes its state inside ``synchronized(_:)`` and, in the same critical section,
/// queues the events that decision produces with ``emitLocked(_:)``. When the critical section
/// ends, the queued events are delivered after the lock is released, one at a time, by
/// whichever thread is not already delivering. So the observer is never called under the lock,
/// never concurrently, and always in decision order. After a terminal event the sink ignores
/// later emissions and disposes itself once that event has been delivered.
///
/// Side work that must keep the same order (such as feeding a `window`'s subject) is queued
/// with ``performLocked(_:)`` and runs in line with the events, also outside the lock.
///
/// The queue and the choice of the delivering thread are the library's one ``DeliveryQueue``.
class OrderedSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    /// One queued step: an event for the observer, or side work.
    enum Item {
        /// An event to deliver.
        case event(Event<Observer.Element>)
        /// Work to run in line with the events.
        case work(() -> Void)
    }

    private let lock = Lock()
    /// The steps waiting for the delivering thread, and whether one is delivering.
    private var queue = DeliveryQueue<Item>()
    /// The batch being delivered, kept empty between batches so its storage is reused.
    private var spare: [Item] = []
    private var terminated = false

    /// `true` once a terminal event has been queued; read inside ``synchronized(_:)``.
    final var isTerminatedLocked: Bool { terminated }

    /// Runs `body` under the lock, then delivers what it queued. Must not be nested.
    @inline(__always)
    final func synchronized<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        let result = body()
        if !queue.hasItems || !queue.claim() {
            lock.unlock()
            return result
        }
        while true {
            queue.swapBatch(&spare)
            lock.unlock()
            for item in spare {
                switch item {
                case .event(let event):
                    forwardOn(event)
                    if event.isStopEvent { dispose() }
                case .work(let work):
                    work()
                }
            }
            spare.removeAll(keepingCapacity: true)
            lock.lock()
            if queue.finishIfEmpty() {
                lock.unlock()
                return result
            }
        }
    }

    /// Queues `event` for delivery; only inside ``synchronized(_:)``. Ignored after a
    /// terminal event.
    @inline(__always)
    final func emitLocked(_ event: Event<Observer.Element>) {
        if terminated { return }
        if event.isStopEvent { terminated = true }
        queue.append(.event(event))
    }

    /// Queues `work` to run after the lock is released, in order with the queued events;
    /// only inside ``synchronized(_:)``.
    @inline(__always)
    final func performLocked(_ work: @escaping () -> Void) {
        queue.append(.work(work))
    }

    /// Queues and delivers one event.
    final func emit(_ event: Event<Observer.Element>) {
        synchronized { emitLocked(event) }
    }
}

/// Holds the timer of the newest window: assigning a disposable tagged with an id disposes
/// the one held if that one is older, or the new one if it is older (so a late assignment
/// from another thread can never replace a newer timer). After ``dispose()``, every
/// assignment is disposed at once.
final class NewestTimerDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var current: (id: UInt64, disposable: Disposable)?
    private var disposed = false

    var isDisposed: Bool { lock.withLock { disposed } }

    /// Keeps `disposable` unless a newer one (a higher `id`) is already held.
    func set(_ disposable: Disposable, id: UInt64) {
        let discarded = lock.withLock { () -> Disposable? in
            if disposed { return disposable }
            if let held = current, held.id > id { return disposable }
            let previous = current?.disposable
            current = (id, disposable)
            return previous
        }
        discarded?.dispose()
    }

    func dispose() {
        let taken = lock.withLock { () -> Disposable? in
            if disposed { return nil }
            disposed = true
            defer { current = nil }
            return current?.disposable
        }
        taken?.dispose()
    }
}
