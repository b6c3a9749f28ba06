/// A ``SerializingSink`` for operators that decide under their lock what to emit but must run a
/// user closure (a result selector) to produce the element: the decisions are queued under the
/// lock, in order, and one thread at a time renders and delivers them after releasing it.
///
/// This keeps two promises at once: no user closure and no observer is called with the lock
/// held (so a selector or observer that feeds a source again cannot deadlock), and elements
/// leave in the order they were decided, whichever thread decided them.
///
/// Subclasses call ``enqueueLocked(_:)`` while holding ``SerializingSink/lock`` and, when it
/// returns `true`, ``drain()`` after releasing the lock.
class OrderedDeliverySink<Pending, Observer: ObserverType>: SerializingSink<Observer>, @unchecked Sendable {
    /// One decision waiting to be delivered.
    enum Work {
        /// An element to render with ``render`` and send.
        case value(Pending)
        /// A terminal event.
        case terminal(Event<Observer.Element>)
    }

    /// Turns a queued value into the element sent downstream; runs outside the lock.
    private let render: (Pending) throws -> Observer.Element
    private var work: [Work] = []
    private var spare: [Work] = []
    private var draining = false

    init(observer: Observer, cancel: Cancelable, render: @escaping (Pending) throws -> Observer.Element) {
        self.render = render
        super.init(observer: observer, cancel: cancel)
    }

    /// Queues `item`; the caller holds ``SerializingSink/lock``.
    ///
    /// - Returns: `true` when the caller must call ``drain()`` once it has released the lock.
    final func enqueueLocked(_ item: Work) -> Bool {
        work.append(item)
        if draining { return false }
        draining = true
        return true
    }

    /// Renders and sends queued work until the queue is empty. Call without the lock held.
    final func drain() {
        while true {
            lock.lock()
            if work.isEmpty || isDisposed {
                work.removeAll()
                draining = false
                lock.unlock()
                return
            }
            // Swap buffers so neither side allocates in the steady state.
            var batch = work
            work = spare
            spare = []
            lock.unlock()
            for item in batch {
                if isDisposed { break }
                switch item {
                case .value(let pending):
                    let element: Observer.Element
                    do {
                        element = try render(pending)
                    } catch {
                        send(.error(error))
                        continue
                    }
                    send(.next(element))
                case .terminal(let event):
                    send(event)
                }
            }
            batch.removeAll(keepingCapacity: true)
            lock.withLock { spare = batch }
        }
    }
}

/// Erases the element type of a source to `Any`, without a sink of its own: each element is
/// boxed on its way through. Used by the fronts of `combineLatest` and `zip`, whose shared
/// engines store the latest values of differently typed sources side by side.
final class AnyBoxingObservable<Source: ObservableType>: Observable<Any>, @unchecked Sendable {
    private let source: Source

    init(_ source: Source) { self.source = source }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Any {
        source.subscribe(AnyBoxingObserver(observer: observer))
    }
}

private struct AnyBoxingObserver<Observer: ObserverType, Element>: ObserverType where Observer.Element == Any {
    let observer: Observer

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): observer.on(.next(element))
        case .error(let error): observer.on(.error(error))
        case .completed: observer.on(.completed)
        }
    }
}

/// Reads typed values back out of the `[Any?]` storage of a combining engine, in order.
struct UnboxingCursor {
    private let values: [Any?]
    private var index = 0

    init(_ values: [Any?]) { self.values = values }

    /// The next value, cast back to its static type.
    mutating func next<Value>(_ type: Value.Type = Value.self) -> Value {
        defer { index += 1 }
        // The fronts build the storage from the same type pack they read it back with.
        return values[index].unsafelyUnwrapped as! Value
    }
}
