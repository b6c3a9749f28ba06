import Locking
/// The shared engine of every subject: a registry of observers, the terminal state, and
/// serialised delivery.
///
/// Delivery follows "decide under the lock, call observers after it". The emitter that finds
/// the subject idle becomes the drainer: it delivers its own event, then every event that other
/// emitters (or re-entrant calls on its own thread) queued meanwhile, in acceptance order. So
/// each observer sees one event at a time and in one order, no observer is called while a lock
/// is held, and no emitter ever blocks on another one's observers.
///
/// A new subscriber receives its replay on its own thread; events accepted meanwhile are buffered
/// for it (its "catch-up"). Once the replay is delivered, the catch-up is finished by whoever
/// delivers for the subject: if a drainer is at work, the subscriber hands its catch-up over and
/// returns (the drainer delivers it, in order, before the subscriber's next event); otherwise the
/// subscriber delivers what drains that have already ended left in it, and looks again. So a
/// subscriber does not chase a producer that emits faster than it can deliver: the first time
/// it finds a drain under way, its catch-up becomes the drainer's. A subscriber never takes the
/// drainer's role. Every event has a sequence number, and an observer receives exactly the
/// events accepted after it subscribed.
///
/// The decisions — accept or ignore, deliver or queue, join or replay the end, hand over or
/// deliver a catch-up, stop delivering — are taken by a ``SubjectState`` value under the lock;
/// this class carries them out: it keeps the events, calls the observers, and holds the lock.
final class SubjectCore<Element>: @unchecked Sendable {
    typealias Entry = SubjectSubscription<Element>

    // The state below is guarded by `lock`, so Swift's run-time exclusivity checks on it
    // (`@exclusivity(unchecked)` switches them off for the fields the per-element path reads)
    // would only repeat what the lock guarantees.
    private let lock = Lock()
    /// The rules: whether events are accepted, who delivers, the observers (as their
    /// non-generic base class: iterating an array of a concrete type needs no runtime type
    /// lookup in this unspecialised code), and whether a backlog waits. Its `hasBacklog` is a
    /// plain flag for `pending` or `handedOver` holding something: the drainer's common exit
    /// checks it, as testing the generic arrays themselves costs runtime metadata lookups (the
    /// code is not specialised for the element type) that dominated a subject's delivery.
    @exclusivity(unchecked) private var state = SubjectState()
    /// The queued events, the handed-over subscribers and the terminal event: made the first
    /// time one is needed (see ``SubjectCoreBacklog``).
    @exclusivity(unchecked) private var backlog: SubjectCoreBacklog<Element>?

    /// `true` once a terminal event was accepted (`stopEvent != nil`); read under the lock.
    var isStopped: Bool { state.isStopped }
    /// `true` once the subject was disposed; read under the lock.
    var isDisposed: Bool { state.isDisposed }

    /// The terminal event, once the subject has ended; read under the lock.
    var stopEvent: Event<Element>? { backlog?.stopEvent }

    /// The backlog, made on first use (under the lock).
    @inline(never)
    private func backlogState() -> SubjectCoreBacklog<Element> {
        if let backlog { return backlog }
        let made = SubjectCoreBacklog<Element>()
        backlog = made
        return made
    }

    /// Records the terminal event, which the state accepted (under the lock).
    @inline(never)
    private func setStopEvent(_ event: Event<Element>) {
        backlogState().stopEvent = event
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
        lock.lock()
        let isStop = event.isStopEvent
        switch state.emit(isStop: isStop) {
        case .ignore:
            lock.unlock()
        case .queue(let sequence):
            update()
            if isStop { setStopEvent(event) }
            enqueue(event, sequence: sequence)
            lock.unlock()
        case .deliver(let sequence):
            update()
            if isStop { setStopEvent(event) }
            let snapshot = state.deliveryTargets(isStop: isStop)
            lock.unlock()
            broadcast(event, sequence: sequence, to: snapshot, lock: lock)
            drain()
        }
    }

    /// Emits the next element: what `emit(.next(element))` does, without building an `Event` on
    /// the common path (see ``ObserverType/onNext(_:)``).
    ///
    /// - Parameter update: Runs under the lock first, only if the subject is still open.
    func emitNext(_ element: Element, update: () -> Void = {}) {
        lock.lock()
        let sequence: UInt64
        switch state.emit(isStop: false) {
        case .ignore:
            lock.unlock()
            return
        case .queue(let queued):
            update()
            enqueueNext(element, sequence: queued)
            lock.unlock()
            return
        case .deliver(let accepted):
            update()
            sequence = accepted
        }
        let snapshot = state.deliveryTargets(isStop: false)
        lock.unlock()
        broadcastNext(element, sequence: sequence, to: snapshot, lock: lock)
        drain()
    }

    /// Emits a last element and the terminal event as one step (used by `AsyncSubject`).
    func emitFinal(_ last: Event<Element>, then stop: Event<Element>) {
        lock.lock()
        switch state.emitFinal() {
        case .ignore:
            lock.unlock()
        case .queue(let sequence):
            setStopEvent(stop)
            enqueue(last, sequence: sequence)
            enqueue(stop, sequence: sequence &+ 1)
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
        // Events accepted during the replay wait in the catch-up; only a drainer appends to it.
        while true {
            lock.lock()
            if !entry.hasCatchUp {
                entry.goLive()
                lock.unlock()
                break
            }
            if finishCatchUpLocked(entry) { break }
        }
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

    /// One step of a subscriber's catch-up, which is not empty (called under the lock; unlocks):
    /// hands it to the drainer at work, or delivers what is there. `true` when the catch-up was
    /// handed over, `false` to look again.
    @inline(never)
    private func finishCatchUpLocked(_ entry: Entry) -> Bool {
        if state.finishCatchUp() == .handOff {
            // A drainer is at work (on another thread, or up this thread's stack): it finishes
            // this catch-up before it stops, so the subscriber does not chase it.
            backlogState().handedOver.append(entry)
            lock.unlock()
            return true
        }
        // Nobody is delivering: everything in the catch-up came from drains that have ended.
        // Deliver it and look again; a drain starting meanwhile takes the rest.
        let batch = entry.takeCatchUp()
        lock.unlock()
        for event in batch where !entry.isDisposed {
            entry.receive(event)
        }
        return false
    }

    /// Removes a disposed subscription, and whatever waits for it.
    func remove(_ entry: Entry) {
        lock.withLock {
            // `handedOver` is empty unless there is a backlog.
            let mayBeHandedOff = state.remove(entry)
            if entry.hasCatchUp || mayBeHandedOff { removeCatchUpLocked(entry) }
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
    /// to a drainer are let go by that drainer, which is at work whenever there are any.)
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

    /// Queues an event for the drainer, as the state decided; called under the lock.
    @inline(never)
    private func enqueue(_ event: Event<Element>, sequence: UInt64) {
        backlogState().pending.append((event, sequence))
    }

    /// Queues an element for the drainer; called under the lock. (Apart, so that the code
    /// building the `Event` stays out of `emitNext`.)
    @inline(never)
    private func enqueueNext(_ element: Element, sequence: UInt64) {
        enqueue(.next(element), sequence: sequence)
    }

    /// Delivers what other emitters queued and finishes handed-over catch-ups, until there is
    /// nothing left; then the subject is idle again.
    private func drain() {
        while true {
            lock.lock()
            if !state.takeBacklog() {
                lock.unlock()
                return
            }
            drainBacklog()
        }
    }

    /// Takes the backlog (called under the lock, returns after unlocking) and delivers it, each
    /// pending event to the observers the rules name for it.
    @inline(never)
    private func drainBacklog() {
        backlogState().drainLocked(lock: lock) { state.deliveryTargets(isStop: $0.isStopEvent) }
    }
}

/// A subject's backlog (``BroadcastBacklog``), which also keeps the terminal event, for
/// subscribers that arrive after it.
final class SubjectCoreBacklog<Element>: BroadcastBacklog<Element> {
    /// The terminal event, once accepted.
    var stopEvent: Event<Element>?
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

/// Errors raised by the library itself.
public enum StreamsError: Swift.Error, @unchecked Sendable, CustomDebugStringConvertible {
    /// An unknown error.
    case unknown
    /// A subject or other object was used after it was disposed.
    case disposed(object: AnyObject)
    /// An arithmetic overflow.
    case overflow
    /// An argument was out of range.
    case argumentOutOfRange
    /// A sequence had no elements where one was required.
    case noElements
    /// A sequence had more than one element where exactly one was required.
    case moreThanOneElement
    /// An operation did not finish in time.
    case timeout

    /// A readable description.
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}

extension StreamsError: Equatable {
    /// Errors are equal when they are the same case (`disposed` ones: for the same object), so
    /// tests can write `#expect(throws: RxError.timeout) { … }`.
    public static func == (lhs: StreamsError, rhs: StreamsError) -> Bool {
        switch (lhs, rhs) {
        case (.unknown, .unknown), (.overflow, .overflow), (.argumentOutOfRange, .argumentOutOfRange),
             (.noElements, .noElements), (.moreThanOneElement, .moreThanOneElement), (.timeout, .timeout):
            return true
        case (.disposed(let a), .disposed(let b)):
            return a === b
        default:
            return false
        }
    }
}

/// RxSwift's name for ``StreamsError``.
public typealias RxError = StreamsError
