/// The rules of a subject, as a value: whether it still accepts events, the sequence number of
/// each accepted event, who is delivering, whether events wait for the deliverer, and the
/// observers an event goes to.
///
/// ``SubjectCore`` keeps one of these under its lock. Every decision — accept or ignore an
/// event, deliver it now or queue it for the thread already delivering, let a new subscriber
/// join or only replay the end, hand a subscriber's catch-up to the deliverer, stop delivering —
/// is one call that returns what to do, and the core does it (calling observers after
/// unlocking). The value knows nothing of threads, locks or elements, so the rules are tested on
/// their own (`SubjectStateTests`). What an event carries, the queued events and each
/// subscriber's catch-up stay in the core; a subject's replay (its value, its buffer) stays in
/// the subject, updated under the same lock when an event is accepted.
struct SubjectState {
    /// What the core does with an event it was given.
    enum Emission: Equatable {
        /// The subject has ended or was disposed: drop the event.
        case ignore
        /// Another call is delivering: queue the event, numbered `sequence`, for it.
        case queue(sequence: UInt64)
        /// Nobody is delivering: this call delivers the event, numbered `sequence`, to
        /// ``deliveryTargets(isStop:)`` and then drains what others queue meanwhile.
        case deliver(sequence: UInt64)
    }

    /// What a new subscriber gets.
    enum Subscription: Equatable {
        /// The subject was disposed: the subscriber receives an error.
        case fail
        /// The subject has ended: the subscriber receives the replay and the terminal event,
        /// and is not added.
        case replayEnded
        /// The subscriber is added, and receives every event from number `firstSequence` on.
        case join(firstSequence: UInt64)
    }

    /// What a subscriber whose catch-up holds events does once its replay is delivered.
    enum CatchUp: Equatable {
        /// A delivery is under way: the deliverer finishes the catch-up before it stops.
        case handOff
        /// Nobody is delivering: the subscriber delivers its catch-up itself, then looks again.
        case deliverItself
    }

    /// The observers an accepted event goes to (those present when it is delivered).
    private(set) var observers: ContiguousArray<BroadcastEntry> = []
    /// The number the next accepted event gets.
    private(set) var accepted: UInt64 = 0
    /// `true` once a terminal event has been accepted.
    private(set) var isStopped = false
    /// `true` once the subject was disposed.
    private(set) var isDisposed = false
    /// `true` while one call delivers; others queue their events for it.
    private(set) var isDraining = false
    /// `true` while events or handed-over subscribers wait for the deliverer.
    private(set) var hasBacklog = false

    /// An event arrives (`isStop`: a terminal one): accepted while the subject is open, and
    /// then delivered by this call if nobody is delivering, otherwise queued.
    @inline(__always)
    mutating func emit(isStop: Bool) -> Emission {
        if isStopped || isDisposed { return .ignore }
        let sequence = accepted
        accepted &+= 1
        if isStop { isStopped = true }
        return route(sequence)
    }

    /// A last element and the terminal event arrive together (`AsyncSubject`'s completion):
    /// accepted as two consecutive numbers, the first of which the returned emission carries.
    mutating func emitFinal() -> Emission {
        if isStopped || isDisposed { return .ignore }
        let sequence = accepted
        accepted &+= 2
        isStopped = true
        return route(sequence)
    }

    /// Queues an accepted event if a delivery is under way, or makes this call the deliverer.
    @inline(__always)
    private mutating func route(_ sequence: UInt64) -> Emission {
        if isDraining {
            hasBacklog = true
            return .queue(sequence: sequence)
        }
        isDraining = true
        return .deliver(sequence: sequence)
    }

    /// The observers that an event being delivered now goes to; after a terminal event the
    /// subject keeps none (they are let go with the delivery).
    @inline(__always)
    mutating func deliveryTargets(isStop: Bool) -> ContiguousArray<BroadcastEntry> {
        let targets = observers
        if isStop { observers = [] }
        return targets
    }

    /// The deliverer looks for more work: `true` when a backlog is there to take (it is then
    /// empty again for the state), `false` when there is none and nobody delivers any longer.
    @inline(__always)
    mutating func takeBacklog() -> Bool {
        if !hasBacklog {
            isDraining = false
            return false
        }
        hasBacklog = false
        return true
    }

    /// A subscriber arrives: what it gets. (Call ``add(_:)`` when it joins.)
    func subscribe() -> Subscription {
        if isDisposed { return .fail }
        if isStopped { return .replayEnded }
        return .join(firstSequence: accepted)
    }

    /// Adds a subscriber that joined (see ``subscribe()``).
    mutating func add(_ entry: BroadcastEntry) {
        observers.append(entry)
    }

    /// A subscriber delivered its replay and finds events in its catch-up: hands it over if a
    /// delivery is under way (the deliverer then has a backlog), or delivers it itself.
    mutating func finishCatchUp() -> CatchUp {
        if isDraining {
            hasBacklog = true
            return .handOff
        }
        return .deliverItself
    }

    /// Removes a disposed subscriber.
    ///
    /// - Returns: `true` when something may still wait for it (a backlog: it may have been
    ///   handed over), so the core must look for it there too.
    mutating func remove(_ entry: BroadcastEntry) -> Bool {
        if let index = observers.firstIndex(where: { $0 === entry }) {
            observers.remove(at: index)
        }
        return hasBacklog
    }

    /// The subject is deallocated: returns the observers, which it keeps no longer.
    mutating func detach() -> ContiguousArray<BroadcastEntry> {
        let released = observers
        observers = []
        return released
    }

    /// The subject is disposed: it accepts nothing more, keeps no observer and drops its
    /// backlog (the core empties its queues in the same step).
    mutating func dispose() {
        isDisposed = true
        observers = []
        hasBacklog = false
    }
}
