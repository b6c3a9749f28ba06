/// A sink that receives events from several sources, possibly on several threads, and passes
/// them downstream one at a time and in one order, without calling out under its lock.
///
/// Subclasses keep their own state under ``lock`` (deciding what to send) and then call
/// ``send(_:)`` after releasing it. The first thread to send while the sink is idle delivers
/// its event and then drains events queued meanwhile by other threads or by re-entrant calls.
/// After a terminal event nothing more is sent, and the sink disposes itself.
class SerializingSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    /// Guards the subclass's state and the delivery queue. Never held while calling out.
    final let lock = SpinLock()
    private var pending: [Event<Observer.Element>] = []
    private var draining = false
    private var terminated = false

    /// `true` once a terminal event has been accepted; read under ``lock``.
    final var isTerminatedLocked: Bool { terminated }

    /// Sends `event` downstream, serialised with every other `send`. Must not be called with
    /// ``lock`` held.
    final func send(_ event: Event<Observer.Element>) {
        lock.lock()
        if terminated {
            lock.unlock()
            return
        }
        if event.isStopEvent { terminated = true }
        if draining {
            pending.append(event)
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        deliver(event)
        while true {
            lock.lock()
            if pending.isEmpty {
                draining = false
                lock.unlock()
                return
            }
            let batch = pending
            pending = []
            lock.unlock()
            for queued in batch { deliver(queued) }
        }
    }

    /// Marks the sink terminated under the lock (the caller holds ``lock``) and reports
    /// whether this call did it; the caller then sends the terminal event itself.
    final func terminateLocked() -> Bool {
        if terminated { return false }
        terminated = true
        return true
    }

    /// Sends a terminal event that was already claimed with ``terminateLocked()``.
    final func sendClaimedTerminal(_ event: Event<Observer.Element>) {
        lock.lock()
        if draining {
            pending.append(event)
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        deliver(event)
        lock.lock()
        let batch = pending
        pending = []
        draining = false
        lock.unlock()
        for queued in batch { deliver(queued) }
    }

    @inline(__always)
    private func deliver(_ event: Event<Observer.Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
