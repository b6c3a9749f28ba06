/// The shared engine of every subject: a registry of observers, the terminal state, and
/// serialised delivery.
///
/// Delivery follows "decide under the lock, call observers after it". The thread that finds the
/// subject idle becomes the drainer: it delivers its own event, then every event or subscription
/// that other threads (or re-entrant calls on its own thread) queued meanwhile, in order. So
/// each observer sees one event at a time and in one order, no observer is called while a lock
/// is held, and no emitter ever blocks on another one's observers.
final class SubjectCore<Element>: @unchecked Sendable {
    typealias Entry = SubjectSubscription<Element>

    private enum Pending {
        case event(Event<Element>)
        case subscribe(Entry, replay: [Event<Element>])
    }

    private let lock = SpinLock()
    private var observers: ContiguousArray<Entry> = []
    private var pending: [Pending] = []
    private var draining = false
    private(set) var stopEvent: Event<Element>?
    private(set) var isDisposed = false

    /// Runs `body` under the lock; `body` must not call out to user code.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock(body)
    }

    var hasObservers: Bool { lock.withLock { !observers.isEmpty } }

    /// Emits `event` to the current observers, serialised with every other emission.
    ///
    /// - Parameter update: Runs under the lock first, only if the subject is still open; the
    ///   subject types record their value or buffer there.
    func emit(_ event: Event<Element>, update: () -> Void = {}) {
        lock.lock()
        if stopEvent != nil || isDisposed {
            lock.unlock()
            return
        }
        update()
        if event.isStopEvent { stopEvent = event }
        if draining {
            pending.append(.event(event))
            lock.unlock()
            return
        }
        draining = true
        let snapshot = observers
        if event.isStopEvent { observers = [] }
        lock.unlock()
        deliver(event, to: snapshot)
        drain()
    }

    /// Emits a last element and the terminal event as one step (used by `AsyncSubject`).
    func emitFinal(_ last: Event<Element>, then stop: Event<Element>) {
        lock.lock()
        if stopEvent != nil || isDisposed {
            lock.unlock()
            return
        }
        stopEvent = stop
        if draining {
            pending.append(.event(last))
            pending.append(.event(stop))
            lock.unlock()
            return
        }
        draining = true
        let snapshot = observers
        observers = []
        lock.unlock()
        deliver(last, to: snapshot)
        deliver(stop, to: snapshot)
        drain()
    }

    /// Adds an observer; it first receives `replay` (computed under the lock by the caller's
    /// `replay` closure), or only the stop event if the subject has ended.
    func subscribe<Observer: ObserverType>(_ observer: Observer, replay: () -> [Event<Element>]) -> Disposable where Observer.Element == Element {
        lock.lock()
        if isDisposed {
            lock.unlock()
            observer.on(.error(StreamsError.disposed(object: self)))
            return Disposables.create()
        }
        if let stopEvent {
            let events = replay() + [stopEvent]
            lock.unlock()
            for event in events { observer.on(event) }
            return Disposables.create()
        }
        let entry = Entry(observer: observer, core: self)
        let events = replay()
        if draining {
            pending.append(.subscribe(entry, replay: events))
            lock.unlock()
            return entry
        }
        draining = true
        observers.append(entry)
        lock.unlock()
        for event in events {
            if entry.isDisposed { break }
            entry.observer.on(event)
        }
        drain()
        return entry
    }

    func remove(_ entry: Entry) {
        lock.withLock {
            if let index = observers.firstIndex(where: { $0 === entry }) {
                observers.remove(at: index)
            }
        }
    }

    /// Ends the subject: observers are released and later subscriptions fail.
    func dispose() {
        lock.withLock {
            isDisposed = true
            observers = []
            pending = []
        }
    }

    private func drain() {
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
            for item in batch {
                switch item {
                case .event(let event):
                    let snapshot = lock.withLock { () -> ContiguousArray<Entry> in
                        let snapshot = observers
                        if event.isStopEvent { observers = [] }
                        return snapshot
                    }
                    deliver(event, to: snapshot)
                case .subscribe(let entry, let replay):
                    let stop = lock.withLock { () -> Event<Element>? in
                        if let stopEvent { return stopEvent }
                        if !entry.isDisposed { observers.append(entry) }
                        return nil
                    }
                    for event in replay where !entry.isDisposed { entry.observer.on(event) }
                    if let stop, !entry.isDisposed { entry.observer.on(stop) }
                }
            }
        }
    }

    @inline(__always)
    private func deliver(_ event: Event<Element>, to snapshot: ContiguousArray<Entry>) {
        for entry in snapshot where !entry.isDisposed {
            entry.observer.on(event)
        }
    }
}

/// One observer's subscription to a subject; disposing it removes the observer.
final class SubjectSubscription<Element>: Disposable, @unchecked Sendable {
    let observer: any ObserverType<Element>
    private weak var core: SubjectCore<Element>?
    private let disposed = AtomicFlag()

    init<Observer: ObserverType>(observer: Observer, core: SubjectCore<Element>) where Observer.Element == Element {
        self.observer = observer
        self.core = core
        Resources.increment()
    }

    deinit { Resources.decrement() }

    @inline(__always)
    var isDisposed: Bool { disposed.isSet }

    func dispose() {
        if disposed.setOnce() { core?.remove(self) }
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

/// RxSwift's name for ``StreamsError``.
public typealias RxError = StreamsError
