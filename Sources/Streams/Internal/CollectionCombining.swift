/// The one engine of the collection forms of `combineLatest` and `zip` (sources of one element
/// type, boxed as `Any`): a producer, and a sink that holds one subscription per source and
/// the operator's rules, a ``CollectionCombiningRules`` value kept under the sink's lock. The
/// sink turns each event of a source into one call of the rules, queues what they decide, and
/// delivers it in order outside the lock (as an ``OrderedDeliverySink``). The rules keep the
/// values: ``CombineLatestCollectionRules`` (the latest value of each source) and
/// ``ZipCollectionRules`` (a queue of waiting values per source). (The fixed-arity forms use
/// the typed engines, ``TypedCombining``.)
final class CollectionCombiningProducer<Result, Rules: CollectionCombiningRules>: Producer<Result>, @unchecked Sendable {
    typealias Projection = ([Any?]) throws -> Result

    let sources: [Observable<Any>]
    let project: Projection

    /// Combines `sources` as `Rules` decide, each combination made by `project`.
    init(sources: [Observable<Any>], rules _: Rules.Type, project: @escaping Projection) {
        self.sources = sources
        self.project = project
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = CollectionCombiningSink<Observer, Rules>(count: sources.count, project: project, observer: observer, handle: handle)
        sink.run(sources)
        return sink
    }
}

/// The rules of a collection operator, with the values they keep: a value that its
/// ``CollectionCombiningSink`` holds under its lock and calls once for each event of a
/// source. Each call returns what the sink must queue for delivery, or says whether the
/// sequence ends; the value knows nothing of threads, observers or subscriptions.
protocol CollectionCombiningRules {
    /// The rules for `count` sources, none of which has sent anything.
    init(count: Int)

    /// What an empty collection sends before completing, if anything.
    static var emptyCombination: [Any?]? { get }

    /// Source `index` sent `value`: keeps it as the rules say, and returns what to queue for
    /// delivery (`nil` for nothing).
    mutating func next(_ value: Any, at index: Int) -> OrderedDeliveryWork<[Any?]>?

    /// The sequence ends otherwise (a source failed, or there is no source): `true` the first
    /// time, when the sink queues the terminal event.
    mutating func stop() -> Bool

    /// Source `index` completed: what the sink does.
    mutating func completed(at index: Int) -> SourcesEnd.OnCompleted
}

/// The sink of ``CollectionCombiningProducer``: the sources' subscriptions, and their events
/// turned into calls of the operator's `Rules` under the sink's lock.
final class CollectionCombiningSink<Observer: ObserverType, Rules: CollectionCombiningRules>: OrderedDeliverySink<[Any?], Observer>, @unchecked Sendable {
    /// Each source's subscription.
    private let subscriptions: [SingleAssignmentDisposable]
    /// The operator's rules and the values they keep. Only touched under `lock`, so its
    /// accesses skip the run-time exclusivity checks.
    @exclusivity(unchecked) private var rules: Rules

    /// A sink for `count` sources whose values `project` combines.
    init(count: Int, project: @escaping ([Any?]) throws -> Observer.Element, observer: Observer, handle: SinkDisposer?) {
        rules = Rules(count: count)
        subscriptions = (0 ..< count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, handle: handle, render: project)
    }

    /// Subscribes to every source, keeping the subscriptions as the sink's upstream; with
    /// none, ends as the rules say (``CollectionCombiningRules/emptyCombination``, then
    /// completion).
    func run(_ sources: [Observable<Any>]) {
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(CollectionCombiningObserver(sink: self, index: index)))
        }
        if sources.isEmpty {
            let mustDrain = lock.withLock { () -> Bool in
                guard rules.stop() else { return false }
                let first = Rules.emptyCombination.map { enqueueLocked(.value($0)) } ?? false
                let second = enqueueLocked(.completed)
                return first || second
            }
            if mustDrain { drain() }
        }
        setUpstream(Disposables.create(subscriptions))
    }

    /// Source `index` sent `value`.
    func next(_ value: Any, at index: Int) {
        lock.lock()
        let mustDrain = rules.next(value, at: index).map { enqueueLocked($0) } ?? false
        lock.unlock()
        if mustDrain { drain() }
    }

    /// A source failed with `error`.
    func fail(_ error: Swift.Error) {
        let mustDrain = lock.withLock { () -> Bool in
            rules.stop() ? enqueueLocked(.error(error)) : false
        }
        if mustDrain { drain() }
    }

    /// Source `index` completed: its subscription is disposed, or the sequence completes.
    func complete(at index: Int) {
        let (mustDrain, detach) = lock.withLock { () -> (Bool, Bool) in
            switch rules.completed(at: index) {
            case .ignore: return (false, false)
            case .detach: return (false, true)
            case .complete: return (enqueueLocked(.completed), false)
            }
        }
        if detach { subscriptions[index].dispose() }
        if mustDrain { drain() }
    }
}

/// The observer of one source of a ``CollectionCombiningSink``.
private struct CollectionCombiningObserver<Observer: ObserverType, Rules: CollectionCombiningRules>: ObserverType {
    let sink: CollectionCombiningSink<Observer, Rules>
    let index: Int

    func on(_ event: Event<Any>) {
        switch event {
        case .next(let value): sink.next(value, at: index)
        case .error(let error): sink.fail(error)
        case .completed: sink.complete(at: index)
        }
    }
}
