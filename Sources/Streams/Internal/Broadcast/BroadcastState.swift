/// The rules every broadcaster follows — a subject (``SubjectCore``) and a connection of the
/// dedicated `share` (``ShareConnection``) — as a value: whether it still accepts events, the
/// sequence number of each accepted event, the observers an event goes to, who delivers (one
/// deliverer at a time; the others queue for it), how a subscriber that joined with a replay
/// finishes catching up, and, for a shared connection, when its source's subscription is
/// disposed.
///
/// The owner keeps one of these under its lock. Every decision — accept or drop an event,
/// deliver it now or queue it for the deliverer at work, let a subscriber join or only replay
/// the end, hand a catch-up to the deliverer, stop delivering — is one call that returns what to
/// do; the owner does it (calling observers after unlocking). The value knows nothing of
/// threads, locks or elements, so the rules are tested on their own (`BroadcastStateTests`).
/// What an event carries, the queued events and each subscriber's catch-up stay in the owner's
/// ``BroadcastBacklog``; a replay (a subject's value or buffer, a connection's last element)
/// stays with the owner, updated under the same lock when an event is accepted.
struct BroadcastState {
    /// What the owner does with an event it was given.
    enum Emission: Equatable {
        /// The broadcaster has ended, was disposed, or (a shared connection) lost its last
        /// observer: the event reaches nobody.
        case drop
        /// A deliverer is at work (on another thread, or up this thread's stack): queue the
        /// event, numbered `sequence`; the deliverer delivers it in order before it stops.
        case queue(sequence: UInt64)
        /// Nobody is delivering: this call becomes the deliverer, delivers the event, numbered
        /// `sequence`, to ``deliveryTargets(isStop:)``, then whatever others queue meanwhile
        /// (``takeBacklog()``).
        case deliver(sequence: UInt64)
    }

    /// What a new subscriber of a subject gets. (A shared connection's subscribers are let in
    /// by its sequence's ``SharingState``.)
    enum Subscription: Equatable {
        /// The broadcaster was disposed: the subscriber receives an error.
        case fail
        /// The broadcaster has ended: the subscriber receives the replay and the terminal
        /// event, and is not added.
        case replayEnded
        /// The subscriber is added, and receives every event from number `firstSequence` on.
        case join(firstSequence: UInt64)
    }

    /// What a subscriber done with its replay does with the events accepted meanwhile (its
    /// catch-up).
    enum CatchUp: Equatable {
        /// Nothing is waiting: from now on deliverers call the subscriber directly.
        case goLive
        /// Events wait and a deliverer is at work: hand the catch-up over to it (it delivers
        /// the catch-up before anything it has queued) and return.
        case handOver
        /// Events wait and nobody delivers: they come from deliveries that have ended; take
        /// them, deliver them, and look again.
        case deliverBatch
    }

    /// Where a shared connection's source subscription is.
    enum Upstream: Equatable {
        /// `subscribe` on the source has not returned yet.
        case subscribing
        /// The connection holds the source's subscription.
        case attached
        /// Disposed, or to be disposed as soon as `subscribe` returns it.
        case released
    }

    /// The observers an accepted event goes to (those present when it is delivered), as their
    /// non-generic base class: iterating them needs no runtime type lookup.
    private(set) var observers: ContiguousArray<BroadcastEntry> = []
    /// The number the next accepted event gets.
    private(set) var accepted: UInt64 = 0
    /// `true` once a terminal event has been accepted (not when it is delivered).
    private(set) var isStopped = false
    /// `true` once the broadcaster was disposed (a subject's `dispose()`, a shared connection's
    /// last observer leaving).
    private(set) var isDisposed = false
    /// `true` while one call delivers; the others queue their events for it.
    private(set) var isDraining = false
    /// `true` while queued events or handed-over catch-ups wait for the deliverer, as a plain
    /// flag (testing the owner's generic arrays costs runtime metadata lookups).
    private(set) var hasBacklog = false
    /// A shared connection's source subscription.
    private(set) var upstream = Upstream.subscribing

    // MARK: Events

    /// An event arrives (`isStop`: a terminal one): accepted while the broadcaster is open,
    /// then delivered by this call if nobody is delivering, otherwise queued.
    @inline(__always)
    mutating func emit(isStop: Bool) -> Emission {
        if isStopped || isDisposed { return .drop }
        let sequence = accepted
        accepted &+= 1
        if isStop { isStopped = true }
        return route(sequence)
    }

    /// A last element and the terminal event arrive together (`AsyncSubject`'s completion):
    /// accepted as two consecutive numbers, the first of which the returned emission carries.
    mutating func emitFinal() -> Emission {
        if isStopped || isDisposed { return .drop }
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
    /// broadcaster keeps none (they are let go with the delivery).
    @inline(__always)
    mutating func deliveryTargets(isStop: Bool) -> ContiguousArray<BroadcastEntry> {
        let targets = observers
        if isStop { observers = [] }
        return targets
    }

    /// The deliverer looks for more work: `true` when a backlog is there to take (the caller
    /// takes all of it, delivers it, and asks again; it is empty again for the state), `false`
    /// when there is none: nobody delivers any longer, and the next event's sender does.
    @inline(__always)
    mutating func takeBacklog() -> Bool {
        if !hasBacklog {
            isDraining = false
            return false
        }
        hasBacklog = false
        return true
    }

    // MARK: Subscribers

    /// A subscriber arrives at a subject: what it gets. (Call ``add(_:)`` when it joins.)
    func subscribe() -> Subscription {
        if isDisposed { return .fail }
        if isStopped { return .replayEnded }
        return .join(firstSequence: accepted)
    }

    /// Adds a subscriber that joined; it receives the events numbered from ``accepted`` on.
    mutating func add(_ entry: BroadcastEntry) {
        observers.append(entry)
    }

    /// A subscriber delivered its replay and its catch-up holds events (`hasCatchUp`) or not:
    /// it goes live, hands the catch-up over to the deliverer at work (which then has a
    /// backlog, so it does not stop before delivering it), or delivers it itself.
    mutating func finishCatchUp(hasCatchUp: Bool) -> CatchUp {
        if !hasCatchUp { return .goLive }
        if isDraining {
            hasBacklog = true
            return .handOver
        }
        return .deliverBatch
    }

    /// Removes the subscriber `entry` names, if it is still an observer.
    ///
    /// - Returns: The removed entry, and whether something may still wait for it (a backlog:
    ///   it may have been handed over), so that the owner looks for it there too.
    mutating func remove(_ entry: ObjectIdentifier) -> (removed: BroadcastEntry?, backlogMayHoldIt: Bool) {
        var removed: BroadcastEntry?
        if let index = observers.firstIndex(where: { ObjectIdentifier($0) == entry }) {
            removed = observers.remove(at: index)
        }
        return (removed, hasBacklog)
    }

    // MARK: Ending

    /// The subject is deallocated: returns the observers, which it keeps no longer.
    mutating func detach() -> ContiguousArray<BroadcastEntry> {
        let released = observers
        observers = []
        return released
    }

    /// The subject is disposed: it accepts nothing more, keeps no observer and drops its
    /// backlog (the owner empties its queues in the same step).
    mutating func dispose() {
        isDisposed = true
        observers = []
        hasBacklog = false
    }

    /// A shared connection's last observer left: later events are dropped.
    ///
    /// - Returns: `true` when the connection was still running (neither ended nor left before).
    mutating func disconnect() -> Bool {
        if isStopped || isDisposed { return false }
        isDisposed = true
        return true
    }

    // MARK: A shared connection's source

    /// `subscribe` on the source returned its subscription.
    ///
    /// - Returns: `true` to keep it; `false` when the connection already let go of its source
    ///   (the caller disposes the subscription at once).
    mutating func attachUpstream() -> Bool {
        guard upstream == .subscribing else { return false }
        upstream = .attached
        return true
    }

    /// The connection lets go of its source (it terminated, or the last observer left).
    ///
    /// - Returns: `true` when the connection holds the subscription, which the caller now
    ///   disposes; `false` when there is none yet (``attachUpstream()`` disposes it) or it was
    ///   released before.
    mutating func releaseUpstream() -> Bool {
        defer { upstream = .released }
        return upstream == .attached
    }
}
