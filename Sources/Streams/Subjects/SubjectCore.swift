import Locking
/// The shared engine of every subject: a ``Broadcaster`` (the registry of observers, the rules
/// and the one drain loop it shares with `share`'s connections) with what only subjects have —
/// subscribing to one that has ended or was disposed, the final pair of `AsyncSubject`, and
/// letting go of the observers when the subject is deallocated.
///
/// Every event has a sequence number, and an observer receives exactly the events accepted
/// after it subscribed; the decisions are taken by the ``BroadcastState`` under the lock, and
/// observers are called after unlocking (see ``Broadcaster``).
final class SubjectCore<Element>: Broadcaster<Element>, @unchecked Sendable {
    typealias Entry = SubjectSubscription<Element>

    /// A core with a lock of its own.
    init() { super.init(lock: Lock()) }

    /// `true` once a terminal event was accepted (`stopEvent != nil`); read under the lock.
    var isStopped: Bool { state.isStopped }
    /// `true` once the subject was disposed; read under the lock.
    var isDisposed: Bool { state.isDisposed }

    /// The terminal event, once the subject has ended; read under the lock.
    var stopEvent: Event<Element>? { backlog?.stopEvent }

    /// Records the terminal event, which the state accepted (under the lock).
    @inline(never)
    private func setStopEvent(_ event: Event<Element>) {
        backlogLocked().stopEvent = event
    }

    /// Runs `body` under the lock; `body` must not call out to user code.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock(body)
    }

    /// Whether any observer is subscribed.
    var hasObservers: Bool { lock.withLock { !state.observers.isEmpty } }

    /// Emits `event` to the current observers, serialised with every other emission.
    ///
    /// - Parameter update: Runs under the lock first, only if the subject is still open; the
    ///   subject types record their value or buffer there.
    func emit(_ event: Event<Element>, update: () -> Void = {}) {
        send(event) {
            update()
            if event.isStopEvent { setStopEvent(event) }
        }
    }

    /// Emits the next element: what `emit(.next(element))` does, without building an `Event` on
    /// the common path (see ``ObserverType/onNext(_:)``).
    ///
    /// - Parameter update: Runs under the lock first, only if the subject is still open.
    func emitNext(_ element: Element, update: () -> Void = {}) {
        sendNext(element, accepted: update)
    }

    /// Emits a last element and the terminal event as one step (used by `AsyncSubject`).
    func emitFinal(_ last: Event<Element>, then stop: Event<Element>) {
        lock.lock()
        switch state.emitFinal() {
        case .drop:
            lock.unlock()
        case .queue(let sequence):
            setStopEvent(stop)
            enqueueLocked(last, sequence: sequence)
            enqueueLocked(stop, sequence: sequence &+ 1)
            lock.unlock()
        case .deliver(let sequence):
            setStopEvent(stop)
            let snapshot = state.deliveryTargets(isStop: true)
            lock.unlock()
            broadcast(last, sequence: sequence, to: snapshot, lock: lock)
            broadcast(stop, sequence: sequence &+ 1, to: snapshot, lock: lock)
            drain()
        }
    }

    /// Adds an observer; it first receives `replay` (computed under the lock by the caller's
    /// `replay` closure, if `hasReplay`), or only the stop event if the subject has ended. The
    /// replay is delivered on the calling thread before `subscribe` returns.
    ///
    /// The common path (no replay, nothing accepted meanwhile) touches no value built from the
    /// element type: everything else is in separate functions, so this one asks the runtime for
    /// no such type's metadata.
    func subscribe<Observer: ObserverType>(_ observer: Observer, hasReplay: Bool = true, replay: () -> [Event<Element>]) -> Disposable where Observer.Element == Element {
        lock.lock()
        let firstSequence: UInt64
        switch state.subscribe() {
        case .fail, .replayEnded:
            return subscribeToEndedLocked(observer, replay: replay)
        case .join(let first):
            firstSequence = first
        }
        let entry = Entry(observer: observer, core: self, firstSequence: firstSequence)
        if hasReplay {
            let events = replay()
            state.add(entry)
            lock.unlock()
            deliverReplay(events, to: entry)
        } else {
            state.add(entry)
            lock.unlock()
        }
        // Events accepted during the replay wait in the catch-up; only a deliverer appends to it.
        finishReplay(of: entry)
        return entry
    }

    /// Subscribes to a subject that has ended or was disposed (called under the lock; unlocks).
    @inline(never)
    private func subscribeToEndedLocked<Observer: ObserverType>(_ observer: Observer, replay: () -> [Event<Element>]) -> Disposable where Observer.Element == Element {
        if isDisposed {
            lock.unlock()
            observer.on(.error(StreamsError.disposed(object: self)))
            return Disposables.create()
        }
        let events = replay() + [stopEvent!]
        lock.unlock()
        for event in events { observer.on(event) }
        return Disposables.create()
    }

    @inline(never)
    private func deliverReplay(_ events: [Event<Element>], to entry: Entry) {
        for event in events {
            if entry.isDisposed { break }
            entry.receive(event)
        }
    }

    /// Removes a disposed subscription, and whatever waits for it.
    func remove(_ entry: Entry) {
        lock.withLock {
            // `handedOver` is empty unless there is a backlog.
            let mayBeHandedOver = state.remove(ObjectIdentifier(entry)).backlogMayHoldIt
            if entry.hasCatchUp || mayBeHandedOver { removeCatchUpLocked(entry) }
        }
    }

    @inline(never)
    private func removeCatchUpLocked(_ entry: Entry) {
        _ = entry.takeCatchUp()
        backlog?.removeHandedOver(ObjectIdentifier(entry))
    }

    /// Lets go of the observers when the subject itself is deallocated: their subscriptions hold
    /// this core (so that disposing one can remove it), and the core holds them until then. They
    /// are released after the lock, as releasing one may run user code. (Subscribers handed over
    /// to a deliverer are let go by that deliverer, which is at work whenever there are any.)
    func detach() {
        lock.lock()
        let released = state.detach()
        lock.unlock()
        withExtendedLifetime(released) {}
    }

    /// Ends the subject: observers are released and later subscriptions fail.
    func dispose() {
        lock.withLock {
            state.dispose()
            backlog?.pending = []
            backlog?.handedOver = []
        }
    }
}

/// One observer's subscription to a subject; disposing it removes the observer.
///
/// It holds the subject's core strongly: a weak reference would give every subject a side table
/// (an allocation, and slower reference counting) for a reference only `dispose` reads. The
/// subject lets go of its observers when it is deallocated (``SubjectCore/detach()``), as on
/// its terminal event and on `dispose()`, so the core and its subscriptions never keep each
/// other alive; a subscription kept after that keeps only the core's memory.
final class SubjectSubscription<Element>: BroadcastSubscription<Element>, Disposable, @unchecked Sendable {
    /// The subject's core, which removes this subscription when it is disposed.
    private let core: SubjectCore<Element>

    /// `observer`'s subscription to `core`, from event number `firstSequence` on.
    init<Observer: ObserverType>(observer: Observer, core: SubjectCore<Element>, firstSequence: UInt64) where Observer.Element == Element {
        self.core = core
        super.init(observer: observer, firstSequence: firstSequence)
    }

    func dispose() {
        if markDisposed() { core.remove(self) }
    }
}
