/// The one engine of the collection forms of `combineLatest` and `zip` (sources of one element
/// type, boxed as `Any`): a producer that makes the operator's sink, and the sink's shape both
/// share — one subscription per source, failure and completion as the operator's rules decide,
/// and the decisions delivered in order outside the lock by an ``OrderedDeliverySink``. The
/// subclasses keep the values and carry out their rules: ``CombineLatestSink`` (the latest
/// value of each source) and ``ZipSink`` (a queue of waiting values per source). (The
/// fixed-arity forms use the typed engines, ``TypedCombining``.)
final class CollectionCombiningProducer<Result>: Producer<Result>, @unchecked Sendable {
    typealias Projection = ([Any?]) throws -> Result

    /// Which operator's rules the sink follows.
    enum Rules {
        /// `combineLatest`: an empty collection sends `project([])`, then completes.
        case combineLatest
        /// `zip`, completing also when a value arrives that can never get partners (RxSwift's
        /// collection form); an empty collection completes at once.
        case zip
    }

    let sources: [Observable<Any>]
    let rules: Rules
    let project: Projection

    init(sources: [Observable<Any>], rules: Rules, project: @escaping Projection) {
        self.sources = sources
        self.rules = rules
        self.project = project
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink: CollectionCombiningSink<Observer>
        switch rules {
        case .combineLatest:
            sink = CombineLatestSink(count: sources.count, project: project, observer: observer, cancel: cancel)
        case .zip:
            sink = ZipSink(count: sources.count, project: project, observer: observer, cancel: cancel)
        }
        return (sink, sink.run(sources))
    }
}

/// The sink shape of ``CollectionCombiningProducer``: the sources' subscriptions, and their
/// events turned into calls of the operator's rules under the sink's lock.
class CollectionCombiningSink<Observer: ObserverType>: OrderedDeliverySink<[Any?], Observer>, @unchecked Sendable {
    /// The number of sources.
    final let count: Int
    /// Each source's subscription.
    private let subscriptions: [SingleAssignmentDisposable]

    /// A sink for `count` sources whose values `project` combines.
    init(count: Int, project: @escaping ([Any?]) throws -> Observer.Element, observer: Observer, cancel: Cancelable) {
        self.count = count
        subscriptions = (0 ..< count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, cancel: cancel, render: project)
    }

    /// Subscribes to every source; with none, ends as the rules say (``endEmptyLocked()``).
    final func run(_ sources: [Observable<Any>]) -> Disposable {
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(CollectionCombiningObserver(sink: self, index: index)))
        }
        if sources.isEmpty {
            let mustDrain = lock.withLock { endEmptyLocked() }
            if mustDrain { drain() }
        }
        return Disposables.create(subscriptions)
    }

    /// Source `index` sent `value`.
    final func next(_ value: Any, at index: Int) {
        lock.lock()
        let mustDrain = nextLocked(value, at: index)
        lock.unlock()
        if mustDrain { drain() }
    }

    /// A source failed with `error`.
    final func fail(_ error: Swift.Error) {
        let mustDrain = lock.withLock { () -> Bool in
            stopLocked() ? enqueueLocked(.error(error)) : false
        }
        if mustDrain { drain() }
    }

    /// Source `index` completed: its subscription is disposed, or the sequence completes.
    final func complete(at index: Int) {
        let (mustDrain, detach) = lock.withLock { () -> (Bool, Bool) in
            switch completedLocked(at: index) {
            case .ignore: return (false, false)
            case .detach: return (false, true)
            case .complete: return (enqueueLocked(.completed), false)
            }
        }
        if detach { subscriptions[index].dispose() }
        if mustDrain { drain() }
    }

    /// The collection is empty (call under the lock): the rules end the sequence. `true` when
    /// the caller must drain.
    func endEmptyLocked() -> Bool { abstractMethod() }

    /// Keeps `value` from source `index` and queues what the rules decide (call under the
    /// lock). `true` when the caller must drain.
    func nextLocked(_ value: Any, at index: Int) -> Bool { abstractMethod() }

    /// The rules stop the sequence (call under the lock): `true` the first time.
    func stopLocked() -> Bool { abstractMethod() }

    /// Source `index` completed (call under the lock): what the rules decide.
    func completedLocked(at index: Int) -> SourcesEnd.OnCompleted { abstractMethod() }
}

/// The observer of one source of a ``CollectionCombiningSink``.
private struct CollectionCombiningObserver<Observer: ObserverType>: ObserverType {
    let sink: CollectionCombiningSink<Observer>
    let index: Int

    func on(_ event: Event<Any>) {
        switch event {
        case .next(let value): sink.next(value, at: index)
        case .error(let error): sink.fail(error)
        case .completed: sink.complete(at: index)
        }
    }
}
