import Locking
/// `share(replay: 0 | 1, scope: .whileConnected)`: one object per shared sequence that decides,
/// under one lock, whether a new observer joins the live connection or starts one, with no
/// subject, no connectable and no reference-counting object in between.
///
/// Under `lock` it holds the sequence's ``SharingState`` (which connection is live, how many
/// observers hold it) and the live ``ShareConnection``, which holds that connection's observers,
/// its last element (replay 1), its delivery state and the source's subscription, guarded by the
/// same lock. A subscription is one decision: join (the observer is added to the connection's
/// observers and takes its replay, in the same step) or connect (a new connection with this
/// observer as its first). Observers are called only after unlocking; the source is subscribed
/// after unlocking too.
///
/// A connection is over as soon as its source's terminal event is accepted, before the event
/// is passed on, and as soon as its last observer leaves: the next observer starts a new
/// connection, with an empty buffer.
final class ShareWhileConnected<Element>: SinklessProducer<Element>, @unchecked Sendable {
    /// The shared source.
    private let source: Observable<Element>
    /// `true` for `share(replay: 1)`: a new observer first receives the connection's last
    /// element.
    let replaysLast: Bool
    /// The lock of the sequence and of all its connections.
    let lock = Lock()
    /// Which connection is live and how many observers hold it; guarded by `lock`.
    @exclusivity(unchecked) private var sharing = SharingState(keepsSubject: false)
    /// The connection `sharing.live` names; guarded by `lock`.
    @exclusivity(unchecked) private var live: ShareConnection<Element>?

    /// Shares `source`, replaying its last element to new observers if `replaysLast`.
    init(source: Observable<Element>, replaysLast: Bool) {
        self.source = source
        self.replaysLast = replaysLast
    }

    /// Joins the live connection or starts one, in one step under the lock; then delivers the
    /// replay, or subscribes the source, after unlocking.
    ///
    /// - Returns: The observer's handle (no sink in between: the connection calls the observer
    ///   itself).
    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        lock.lock()
        switch sharing.subscribe() {
        case .join:
            let connection = live.unsafelyUnwrapped
            let (entry, replay) = connection.joinLocked(observer)
            lock.unlock()
            if let replay { connection.deliverReplay(replay, to: entry) }
            return ShareSubscriptionHandle(connection: connection, entry: entry)
        case .connect(let generation):
            let connection = ShareConnection(parent: self, generation: generation)
            live = connection
            let (entry, _) = connection.joinLocked(observer)
            lock.unlock()
            connection.attach(source.subscribeUpstream(connection))
            return ShareSubscriptionHandle(connection: connection, entry: entry)
        case .replayFinished:
            preconditionFailure("a connection made anew for each subscription never replays a finished one")
        }
    }

    /// Connection `connection`'s source terminated: the connection is over before its terminal
    /// event is passed on (call under `lock`).
    func connectionTerminatedLocked(_ connection: ShareConnection<Element>) {
        if sharing.end(generation: connection.generation, terminated: true) { live = nil }
    }

    /// An observer of `connection` leaves (call under `lock`).
    ///
    /// - Returns: `true` when it was the live connection's last observer: the connection is
    ///   over, and the caller lets go of its source.
    func observerLeftLocked(_ connection: ShareConnection<Element>) -> Bool {
        guard sharing.unsubscribe(generation: connection.generation) else { return false }
        live = nil
        return true
    }
}

/// One connection of a ``ShareWhileConnected``: the source's observer, and the observers that
/// joined it — a ``Broadcaster`` guarded by the shared sequence's lock.
///
/// Delivery is the broadcaster's: the sender of an event that finds nobody delivering delivers
/// it to a snapshot of the observers after unlocking; events sent meanwhile (by a source that
/// re-enters from inside an observer, or one that breaks the contract and sends from two
/// threads) are queued and delivered by that deliverer, in order. An observer that joins with a
/// replay receives it on its own thread, then finishes its catch-up. Each event has a sequence
/// number, and an observer receives exactly the events numbered from the one after its replay
/// on.
final class ShareConnection<Element>: Broadcaster<Element>, ObserverType, @unchecked Sendable {
    /// The shared sequence; it holds this connection while it is live.
    private let parent: ShareWhileConnected<Element>
    /// The connection's number in the parent's ``SharingState``.
    let generation: UInt64
    /// The parent's ``ShareWhileConnected/replaysLast``.
    private let replaysLast: Bool
    /// The source's subscription, once attached; guarded by `lock`.
    @exclusivity(unchecked) private var upstream: Disposable?
    /// The last element, in a box made for the first one (replay 1 only); guarded by `lock`.
    @exclusivity(unchecked) private var last: ShareReplayBox<Element>?

    /// A new connection of `parent`, numbered `generation`.
    init(parent: ShareWhileConnected<Element>, generation: UInt64) {
        self.parent = parent
        self.generation = generation
        self.replaysLast = parent.replaysLast
        super.init(lock: parent.lock)
        Resources.increment()
    }

    deinit { Resources.decrement() }

    // MARK: Observers joining and leaving

    /// Adds `observer` (call under `lock`).
    ///
    /// - Returns: Its subscription, and the element to replay to it (then it is not live yet:
    ///   the caller delivers the replay with ``deliverReplay(_:to:)`` after unlocking).
    func joinLocked<Observer: ObserverType>(_ observer: Observer) -> (BroadcastSubscription<Element>, Element?) where Observer.Element == Element {
        let entry = BroadcastSubscription(observer: observer, firstSequence: state.accepted)
        state.add(entry)
        if let last {
            return (entry, last.value)
        }
        entry.goLive()
        return (entry, nil)
    }

    /// Delivers `replay` to `entry`, then what was accepted meanwhile, until `entry` is live
    /// or its catch-up is handed over to the deliverer at work.
    func deliverReplay(_ replay: Element, to entry: BroadcastSubscription<Element>) {
        if !entry.isDisposed { entry.receive(.next(replay)) }
        finishReplay(of: entry)
    }

    /// The subscription named `entry` was disposed: it receives nothing more and leaves, and the
    /// last observer to leave ends the connection and disposes the source's subscription.
    ///
    /// The subscription is looked up by identity among those the connection still holds. The
    /// identity cannot name another subscription: an entry is not deallocated while the
    /// connection holds it, and the connection lets go of one only through its own handle's
    /// single `dispose`, or once its source has terminated, after which nobody joins it. One no
    /// longer held is past its connection's terminal event.
    func leave(_ entry: ObjectIdentifier) {
        // What the connection lets go of is released after unlocking: releasing an observer or
        // an element may run its owner's code.
        var handedOver: BroadcastSubscription<Element>?, catchUp: [Event<Element>] = []
        lock.lock()
        let (left, _) = state.remove(entry)
        if let left {
            _ = left.markDisposed()
            if left.hasCatchUp { catchUp = unsafeDowncast(left, to: BroadcastSubscription<Element>.self).takeCatchUp() }
        }
        if let entry = backlog?.removeHandedOver(entry) {
            _ = entry.markDisposed()
            catchUp.append(contentsOf: entry.takeCatchUp())
            handedOver = entry
        }
        var subscription: Disposable?
        // Released after unlocking: releasing an element may run its owner's code.
        var replay: ShareReplayBox<Element>?
        if parent.observerLeftLocked(self) {
            _ = state.disconnect()
            replay = last.take()
            if state.releaseUpstream() { subscription = upstream.take() }
        }
        lock.unlock()
        withExtendedLifetime((left, handedOver, catchUp, replay)) {}
        subscription?.dispose()
    }

    /// Keeps the source's subscription, or disposes it at once if the connection is already
    /// over (a synchronous source that terminated inside `subscribe`, or every observer left).
    func attach(_ subscription: Disposable) {
        lock.lock()
        if state.attachUpstream() {
            upstream = subscription
            lock.unlock()
        } else {
            lock.unlock()
            subscription.dispose()
        }
    }

    // MARK: The source's events

    /// Receives the source's event.
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            terminate(event)
        }
    }

    /// Receives the source's next element: records it for the replay, and delivers it (or
    /// queues it for the deliverer at work).
    func onNext(_ element: Element) {
        sendNext(element) {
            if replaysLast { record(element) }
        }
    }

    /// Keeps `element` as the replay (call under `lock`).
    @inline(__always)
    private func record(_ element: Element) {
        if let last {
            last.value = element
        } else {
            last = ShareReplayBox(element)
        }
    }

    /// Receives the source's terminal event: the connection is over before the event is passed
    /// on, so that an observer subscribing from inside its terminal handler starts a new one.
    private func terminate(_ event: Event<Element>) {
        // Released after unlocking: releasing an element may run its owner's code.
        var replay: ShareReplayBox<Element>?, subscription: Disposable?
        send(event) {
            parent.connectionTerminatedLocked(self)
            replay = last.take()
            if state.releaseUpstream() { subscription = upstream.take() }
        }
        withExtendedLifetime(replay) {}
        subscription?.dispose()
    }
}

/// The last element of a connection that replays one, in a box so that storing each element
/// assigns a value of the element type (no optional of it to look up at run time).
final class ShareReplayBox<Element> {
    /// The element.
    var value: Element

    /// A box holding `value`.
    init(_ value: Element) { self.value = value }
}

/// What the subscriber of a shared sequence holds: disposing it takes its subscription out of
/// the connection. It names the subscription without holding it, so an observer that holds its
/// own handle (a closure capturing the bag it is in) is released once the connection lets go of
/// the subscription.
final class ShareSubscriptionHandle<Element>: Disposable, @unchecked Sendable {
    /// Set by the first `dispose`.
    private let disposed = AtomicFlag()
    /// The connection the subscription joined.
    private let connection: ShareConnection<Element>
    /// The subscription's identity (never dereferenced).
    private let entry: ObjectIdentifier

    /// The handle of `entry`, an observer of `connection`.
    init(connection: ShareConnection<Element>, entry: BroadcastSubscription<Element>) {
        self.connection = connection
        self.entry = ObjectIdentifier(entry)
    }

    /// Stops delivery to the observer and leaves the connection, once.
    func dispose() {
        if disposed.setOnce() { connection.leave(entry) }
    }
}
