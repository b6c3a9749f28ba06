/// The rules of one connection of `share(replay: 0 | 1, scope: .whileConnected)`, as a value:
/// whether it still accepts events, the sequence number of each accepted event, who delivers
/// (one drainer at a time), how a new observer finishes catching up, and when the source's
/// subscription is disposed.
///
/// ``ShareConnection`` keeps one of these under its shared sequence's lock. Every call is one
/// decision taken under that lock; the connection acts on it (calls observers, disposes the
/// source) after unlocking. The value knows nothing of threads or observers, so its rules are
/// tested on their own (`ShareConnectionStateTests`). Which connection an observer joins is
/// decided before, by the sequence's ``SharingState``.
struct ShareConnectionState: Sendable, Equatable {
    /// What to do with an event the source sent.
    enum Delivery: Equatable {
        /// The connection is over (its source terminated before, or its last observer left):
        /// the event reaches nobody.
        case drop
        /// Nobody is delivering: the caller becomes the drainer and delivers the event, number
        /// `sequence`, then whatever others queued meanwhile (``drainerLooksAgain()``).
        case deliver(sequence: UInt64)
        /// A drainer is at work (on another thread, or up this thread's stack): queue the event,
        /// number `sequence`; the drainer delivers it in order before it stops.
        case queue(sequence: UInt64)
    }

    /// What a new observer, done with its replay, does with the events accepted meanwhile (its
    /// catch-up).
    enum CatchUp: Equatable {
        /// Nothing is waiting: from now on drainers call the observer directly.
        case goLive
        /// Events wait and a drainer is at work: hand the catch-up over to it (it delivers the
        /// catch-up before anything it has queued) and return.
        case handOver
        /// Events wait and nobody delivers: take them, deliver them, and look again.
        case deliverBatch
    }

    /// Where the source's subscription is.
    enum Upstream: Equatable {
        /// `subscribe` on the source has not returned yet.
        case subscribing
        /// The connection holds the source's subscription.
        case attached
        /// Disposed, or to be disposed as soon as `subscribe` returns it.
        case released
    }

    /// `true` once the source terminated or the last observer left: later events are dropped.
    private(set) var isOver = false
    /// How many events were accepted; the next one gets this number. An observer that joins
    /// receives events from this number on (its replay is the element numbered one less).
    private(set) var accepted: UInt64 = 0
    /// `true` while a drainer delivers.
    private(set) var draining = false
    /// `true` while queued events or handed-over catch-ups wait for the drainer.
    private(set) var hasBacklog = false
    /// The source's subscription.
    private(set) var upstream = Upstream.subscribing

    /// The source sent an event (`terminal`: its error or completion).
    mutating func accept(terminal: Bool) -> Delivery {
        if isOver { return .drop }
        if terminal { isOver = true }
        let sequence = accepted
        accepted &+= 1
        if draining {
            hasBacklog = true
            return .queue(sequence: sequence)
        }
        draining = true
        return .deliver(sequence: sequence)
    }

    /// The drainer has delivered what it had.
    ///
    /// - Returns: `true` when a backlog waits (the caller takes all of it and delivers it, then
    ///   asks again); `false` when there is none: the drainer stops, and the next event's sender
    ///   delivers it.
    mutating func drainerLooksAgain() -> Bool {
        if hasBacklog {
            hasBacklog = false
            return true
        }
        draining = false
        return false
    }

    /// A new observer, done with its replay, has a catch-up (`hasCatchUp`) or not.
    mutating func catchUp(hasCatchUp: Bool) -> CatchUp {
        if !hasCatchUp { return .goLive }
        if draining {
            hasBacklog = true
            return .handOver
        }
        return .deliverBatch
    }

    /// The last observer left: later events are dropped.
    ///
    /// - Returns: `true` when the connection was still running.
    mutating func disconnect() -> Bool {
        if isOver { return false }
        isOver = true
        return true
    }

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
