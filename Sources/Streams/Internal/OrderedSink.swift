/// A sink for operators driven by a source and by timers (or a second source) on possibly
/// different threads, whose decisions and emissions must stay in one order.
///
/// A subclass changes its state inside ``synchronized(_:)`` and, in the same critical section,
/// queues the events that decision produces with ``emitLocked(_:)``. When the critical section
/// ends, the queued events are delivered after the lock is released, one at a time, by
/// whichever thread is not already delivering. So the observer is never called under the lock,
/// never concurrently, and always in decision order. After a terminal event the sink ignores
/// later emissions and disposes itself once that event has been delivered.
class OrderedSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    private let lock = SpinLock()
    private var pending: [Event<Observer.Element>] = []
    private var spare: [Event<Observer.Element>] = []
    private var draining = false
    private var terminated = false

    /// `true` once a terminal event has been queued; read inside ``synchronized(_:)``.
    final var isTerminatedLocked: Bool { terminated }

    /// Runs `body` under the lock, then delivers what it queued. Must not be nested.
    @inline(__always)
    final func synchronized<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        let result = body()
        if draining || pending.isEmpty {
            lock.unlock()
            return result
        }
        draining = true
        while true {
            swap(&pending, &spare)
            lock.unlock()
            for event in spare {
                forwardOn(event)
                if event.isStopEvent { dispose() }
            }
            spare.removeAll(keepingCapacity: true)
            lock.lock()
            if pending.isEmpty {
                draining = false
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
        pending.append(event)
    }

    /// Queues and delivers one event.
    final func emit(_ event: Event<Observer.Element>) {
        synchronized { emitLocked(event) }
    }
}
