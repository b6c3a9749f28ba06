import Locking
/// A sink that receives events from several sources, possibly on several threads, and passes
/// them downstream one at a time and in one order, without calling out under its lock.
///
/// Subclasses keep their own state under ``lock`` (deciding what to send) and then call
/// ``send(_:)`` after releasing it. The first thread to send while the sink is idle delivers
/// its event and then drains events queued meanwhile by other threads or by re-entrant calls.
/// After a terminal event nothing more is sent, and the sink disposes itself. The queue and the
/// choice of the delivering thread are the library's one ``DeliveryQueue``.
class SerializingSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    /// Guards the subclass's state and the delivery queue. Never held while calling out.
    final let lock = Lock()
    /// The events waiting for the delivering thread, and whether one is delivering.
    private var queue = DeliveryQueue<Event<Observer.Element>>()
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
        if !queue.claim() {
            queue.append(event)
            lock.unlock()
            return
        }
        lock.unlock()
        deliver(event)
        drain()
    }

    /// Sends the next element: what `send(.next(element))` does, without building an `Event`
    /// on the common path.
    final func sendNext(_ element: Observer.Element) {
        sendNext(element) { true }
    }

    /// Sends the next element if `accept` holds: the decision is taken under ``lock`` in the
    /// same step that queues (or starts delivering) the element, so no event decided after it
    /// can overtake it. `accept` runs under the lock: it may read the subclass's state, and must
    /// not call out.
    @inline(__always)
    final func sendNext(_ element: Observer.Element, if accept: () -> Bool) {
        lock.lock()
        if terminated || !accept() {
            lock.unlock()
            return
        }
        if !queue.claim() {
            enqueueNext(element)
            lock.unlock()
            return
        }
        lock.unlock()
        forwardNext(element)
        drain()
    }

    /// Queues an element for the thread delivering; called under the lock. (Apart, so that the
    /// code building the `Event` stays out of `sendNext`.)
    @inline(never)
    private func enqueueNext(_ element: Observer.Element) {
        queue.append(.next(element))
    }

    /// Delivers what was queued meanwhile, until nothing is left; then the sink is idle.
    private func drain() {
        while true {
            lock.lock()
            if queue.finishIfEmpty() {
                lock.unlock()
                return
            }
            deliverPending()
        }
    }

    /// Takes the queue (called under the lock, returns after unlocking) and delivers it.
    @inline(never)
    private func deliverPending() {
        let batch = queue.takeAll()
        lock.unlock()
        for queued in batch { deliver(queued) }
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
        if !queue.claim() {
            queue.append(event)
            lock.unlock()
            return
        }
        lock.unlock()
        deliver(event)
        // Then whatever was queued meanwhile, once; the sink is idle again.
        lock.lock()
        let batch = queue.hasItems ? queue.takeAll() : []
        _ = queue.finishIfEmpty()
        lock.unlock()
        for queued in batch { deliver(queued) }
    }

    @inline(__always)
    private func deliver(_ event: Event<Observer.Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
