/// A ``SerializingSink`` for operators that decide under their lock what to emit but must run a
/// user closure (a result selector) to produce the element: the decisions are queued under the
/// lock, in order, and one thread at a time renders and delivers them after releasing it.
///
/// This keeps two promises at once: no user closure and no observer is called with the lock
/// held (so a selector or observer that feeds a source again cannot deadlock), and elements
/// leave in the order they were decided, whichever thread decided them.
///
/// The sink that derives from it (``CollectionCombiningSink``) calls ``enqueueLocked(_:)``
/// while holding ``SerializingSink/lock`` and, when it returns `true`, ``drain()`` after
/// releasing the lock. The queue and the choice of the delivering thread are the library's one
/// ``DeliveryQueue``.
class OrderedDeliverySink<Pending, Observer: ObserverType>: SerializingSink<Observer>, @unchecked Sendable {
    typealias Work = OrderedDeliveryWork<Pending>

    /// Turns a queued value into the element sent downstream; runs outside the lock.
    private let render: (Pending) throws -> Observer.Element
    /// The decisions waiting for the delivering thread, and whether one is delivering.
    private var queue = DeliveryQueue<Work>()
    /// The batch being delivered, kept empty between batches so its storage is reused.
    private var spare: [Work] = []

    /// A sink of a ``Producer`` (see ``Sink/init(observer:handle:)``) whose queued values
    /// `render` turns into elements.
    init(observer: Observer, handle: SinkDisposer?, render: @escaping (Pending) throws -> Observer.Element) {
        self.render = render
        super.init(observer: observer, handle: handle)
    }

    /// Queues `item`; the caller holds ``SerializingSink/lock``.
    ///
    /// - Returns: `true` when the caller must call ``drain()`` once it has released the lock.
    @inline(__always)
    final func enqueueLocked(_ item: Work) -> Bool {
        queue.append(item)
        return queue.claim()
    }

    /// Renders and delivers queued work until the queue is empty. Call without the lock held.
    ///
    /// Only the thread that got `true` from ``enqueueLocked(_:)`` drains, so delivery here is
    /// already serialised and goes straight to the observer; subclasses never call `send`.
    /// Inlined so that, in an engine queuing a concrete type, the queue operations are
    /// specialised instead of looking generic metadata up for every element.
    @inline(__always)
    final func drain() {
        lock.lock()
        var batch = spare
        spare = []
        while true {
            if isDisposed || queue.finishIfEmpty() {
                if isDisposed { queue.stop() }
                spare = batch
                lock.unlock()
                return
            }
            // Swap buffers so that, in the steady state, neither side allocates.
            queue.swapBatch(&batch)
            lock.unlock()
            delivery: for item in batch {
                if isDisposed { break delivery }
                switch item {
                case .value(let pending):
                    let element: Observer.Element
                    do {
                        element = try render(pending)
                    } catch {
                        forwardOn(.error(error))
                        dispose()
                        break delivery
                    }
                    forwardOn(.next(element))
                case .error(let error):
                    forwardOn(.error(error))
                    dispose()
                    break delivery
                case .completed:
                    forwardOn(.completed)
                    dispose()
                    break delivery
                }
            }
            batch.removeAll(keepingCapacity: true)
            lock.lock()
        }
    }
}

/// One decision of an ``OrderedDeliverySink`` waiting to be delivered.
///
/// A top-level type generic only over what is queued (not nested in the sink, which would make
/// it generic over the observer too), so that engines queuing a concrete type such as `[Any?]`
/// do not look its metadata up at run time for every element.
enum OrderedDeliveryWork<Pending> {
    /// An element to render and send.
    case value(Pending)
    /// The sequence fails with this error.
    case error(Swift.Error)
    /// The sequence completes.
    case completed
}

/// Erases the element type of a source to `Any`, without a sink of its own: each element is
/// boxed on its way through. Used by the collection forms of `zip` and `combineLatest`, whose
/// shared engines store the values of their sources side by side (the fixed-arity forms store
/// them typed, see ``TypedCombining``).
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
