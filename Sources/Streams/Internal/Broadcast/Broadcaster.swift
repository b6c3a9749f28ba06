import Locking

/// The delivery every broadcaster shares — a subject's ``SubjectCore`` and a shared
/// connection's ``ShareConnection`` are its two kinds: the rules (a ``BroadcastState``), the
/// backlog, and the one drain loop that carries the rules out.
///
/// Delivery follows "decide under the lock, call observers after it". The sender of an event
/// that finds nobody delivering becomes the deliverer: it delivers its own event to a snapshot
/// of the observers, then every event that other senders (or re-entrant calls on its own
/// thread) queued meanwhile, in acceptance order (``drain()``). So each observer sees one event
/// at a time and in one order, no observer is called while the lock is held, and no sender ever
/// blocks on another one's observers.
///
/// A subscriber that joins with a replay receives it on its own thread; events accepted
/// meanwhile wait in its catch-up. Once its replay is delivered it finishes the catch-up with
/// ``finishReplay(of:)``: if a deliverer is at work, the catch-up is handed over to it (it
/// delivers it, in order, before anything it queued later), otherwise the subscriber delivers
/// what ended deliveries left, and looks again. So a subscriber never chases a sender faster
/// than it, and never takes the deliverer's role.
///
/// (The serialising sinks use ``DeliveryQueue``, the same claim–queue–drain protocol for one
/// observer; a broadcaster's differs in what it adds: sequence numbers, many observers, and
/// catch-ups handed to the deliverer.)
class Broadcaster<Element>: @unchecked Sendable {
    // The state below is guarded by `lock`, so Swift's run-time exclusivity checks on it
    // (`@exclusivity(unchecked)` switches them off for the fields the per-element path reads)
    // would only repeat what the lock guarantees.
    /// The lock guarding the rules, the backlog and whatever the kind keeps with them.
    final let lock: Lock
    /// The rules.
    @exclusivity(unchecked) final var state = BroadcastState()
    /// The queued events, the handed-over subscribers and a subject's terminal event: made the
    /// first time one is needed (see ``BroadcastBacklog``).
    @exclusivity(unchecked) final var backlog: BroadcastBacklog<Element>?

    /// A broadcaster guarded by `lock`.
    init(lock: Lock) {
        self.lock = lock
    }

    /// The backlog, made on first use (call under `lock`).
    @inline(never)
    final func backlogLocked() -> BroadcastBacklog<Element> {
        if let backlog { return backlog }
        let made = BroadcastBacklog<Element>()
        backlog = made
        return made
    }

    /// Sends `event` to the observers, serialised with every other event: delivered by this
    /// call (after unlocking) if nobody is delivering, otherwise queued for the deliverer.
    ///
    /// - Parameter accepted: Runs under the lock first, only if the event is accepted; the
    ///   kinds record their replay, or end, there.
    @inline(__always)
    final func send(_ event: Event<Element>, accepted: () -> Void) {
        lock.lock()
        let isStop = event.isStopEvent
        switch state.emit(isStop: isStop) {
        case .drop:
            lock.unlock()
        case .queue(let sequence):
            accepted()
            enqueueLocked(event, sequence: sequence)
            lock.unlock()
        case .deliver(let sequence):
            accepted()
            let snapshot = state.deliveryTargets(isStop: isStop)
            lock.unlock()
            broadcast(event, sequence: sequence, to: snapshot, lock: lock)
            drain()
        }
    }

    /// Sends the next element: what `send(.next(element))` does, without building an `Event`
    /// on the common path (see ``ObserverType/onNext(_:)``).
    ///
    /// - Parameter accepted: Runs under the lock first, only if the element is accepted.
    @inline(__always)
    final func sendNext(_ element: Element, accepted: () -> Void) {
        lock.lock()
        let sequence: UInt64
        switch state.emit(isStop: false) {
        case .drop:
            lock.unlock()
            return
        case .queue(let queued):
            accepted()
            enqueueNextLocked(element, sequence: queued)
            lock.unlock()
            return
        case .deliver(let delivered):
            accepted()
            sequence = delivered
        }
        let snapshot = state.deliveryTargets(isStop: false)
        lock.unlock()
        broadcastNext(element, sequence: sequence, to: snapshot, lock: lock)
        drain()
    }

    /// Queues an event for the deliverer, as the rules decided (call under `lock`).
    @inline(never)
    final func enqueueLocked(_ event: Event<Element>, sequence: UInt64) {
        backlogLocked().pending.append((event, sequence))
    }

    /// Queues an element for the deliverer (call under `lock`). (Apart, so that the code
    /// building the `Event` stays out of ``sendNext(_:accepted:)``.)
    @inline(never)
    final func enqueueNextLocked(_ element: Element, sequence: UInt64) {
        enqueueLocked(.next(element), sequence: sequence)
    }

    /// The deliverer delivers what was queued and handed over while it delivered, until
    /// nothing is left; then nobody is delivering.
    final func drain() {
        while true {
            lock.lock()
            if !state.takeBacklog() {
                lock.unlock()
                return
            }
            drainBacklogLocked()
        }
    }

    /// Takes the backlog (call under `lock`; returns after unlocking) and delivers it, each
    /// queued event to the observers the rules name for it (none after the terminal event).
    @inline(never)
    private final func drainBacklogLocked() {
        backlogLocked().drainLocked(lock: lock) { state.deliveryTargets(isStop: $0.isStopEvent) }
    }

    /// `entry` has received its replay: it finishes its catch-up, until it is live or the
    /// catch-up is handed over to the deliverer at work. The common path (nothing accepted
    /// meanwhile) touches no value built from the element type.
    @inline(__always)
    final func finishReplay(of entry: BroadcastSubscription<Element>) {
        while true {
            lock.lock()
            if !entry.hasCatchUp {
                entry.goLive()
                lock.unlock()
                return
            }
            if finishCatchUpLocked(entry) { return }
        }
    }

    /// One step of a subscriber's catch-up, which is not empty (call under `lock`; unlocks):
    /// hands it to the deliverer at work, or delivers what is there. `true` when the catch-up
    /// was handed over, `false` to look again.
    @inline(never)
    private final func finishCatchUpLocked(_ entry: BroadcastSubscription<Element>) -> Bool {
        switch state.finishCatchUp(hasCatchUp: true) {
        case .goLive:
            entry.goLive()
            lock.unlock()
            return true
        case .handOver:
            // The deliverer finishes this catch-up before it stops, so the subscriber does not
            // chase it.
            backlogLocked().handedOver.append(entry)
            lock.unlock()
            return true
        case .deliverBatch:
            // Everything in the catch-up came from deliveries that have ended. Deliver it and
            // look again; a delivery starting meanwhile takes the rest.
            let batch = entry.takeCatchUp()
            lock.unlock()
            for event in batch where !entry.isDisposed {
                entry.receive(event)
            }
            return false
        }
    }
}
