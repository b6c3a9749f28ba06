extension ObservableType {
    /// Combines the latest elements of several sequences with `resultSelector`, each time any
    /// of them sends an element, once every one has sent at least one.
    ///
    ///     a: --1-----2-----|
    ///     b: -----3-----4------|
    ///     combineLatest(a, b) { $0 + $1 }
    ///        -----4--5--6------|
    ///
    /// Takes two or more sources of any element types (RxSwift offers 2 to 8). Fails as soon as
    /// a source fails; completes when every source has completed, or as soon as a source sends
    /// an element while some other source is still empty and all the others have completed
    /// (no result can ever be made then).
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - sources: Further sources.
    ///   - resultSelector: Makes an element from the latest element of each source, in order;
    ///     a thrown error ends the sequence with that error.
    /// - Returns: The combined sequence.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, each O: ObservableType>(
        _ source1: O1, _ source2: O2, _ sources: repeat each O,
        resultSelector: @escaping (O1.Element, O2.Element, repeat (each O).Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestTyped(source1, source2, repeat each sources, resultSelector: resultSelector)
    }

    /// Combines the latest elements of a collection of sequences into arrays, or with
    /// `resultSelector`, each time any of them sends an element, once every one has sent one.
    ///
    ///     a: --1-----2-----|
    ///     b: -----3-----4------|
    ///     combineLatest([a, b]) { $0.reduce(0, +) }
    ///        -----4--5--6------|
    ///
    /// An empty collection sends `resultSelector([])` and completes.
    ///
    /// - Parameters:
    ///   - collection: The sources.
    ///   - resultSelector: Makes an element from the latest elements, in source order.
    /// - Returns: The combined sequence.
    public static func combineLatest<Sources: Collection>(
        _ collection: Sources,
        resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableType {
        CombineLatestProducer(sources: collection.map { AnyBoxingObservable($0) }, emitsWhenEmpty: true) { values in
            try resultSelector(values.map { $0.unsafelyUnwrapped as! Sources.Element.Element })
        }
    }

    /// Combines the latest elements of a collection of sequences into arrays, each time any of
    /// them sends an element, once every one has sent one.
    ///
    ///     a: --1-----2-----|
    ///     b: -----3-----4------|
    ///     combineLatest([a, b])
    ///        -----A--B--C------|
    ///     where A = [1, 3], B = [2, 3], C = [2, 4]
    ///
    /// An empty collection sends `[]` and completes.
    ///
    /// - Parameter collection: The sources.
    /// - Returns: The sequence of arrays of latest elements, in source order.
    public static func combineLatest<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableType, Sources.Element.Element == Element {
        CombineLatestProducer(sources: collection.map { AnyBoxingObservable($0) }, emitsWhenEmpty: true) { values in
            values.map { $0.unsafelyUnwrapped as! Element }
        }
    }
}

extension ObservableType where Element == Any {
    /// Combines the latest elements of several sequences into tuples, each time any of them
    /// sends an element, once every one has sent at least one.
    ///
    ///     a: --1-----2-----|
    ///     b: -----3-----4------|
    ///     combineLatest(a, b)
    ///        -----A--B--C------|
    ///     where A = (1, 3), B = (2, 3), C = (2, 4)
    ///
    /// Completion and failure as in ``ObservableType/combineLatest(_:_:_:resultSelector:)``.
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - sources: Further sources.
    /// - Returns: The sequence of tuples of latest elements, in source order.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, each O: ObservableType>(
        _ source1: O1, _ source2: O2, _ sources: repeat each O
    ) -> Observable<(O1.Element, O2.Element, repeat (each O).Element)> {
        CombineLatestTyped(source1, source2, repeat each sources) { (first: O1.Element, second: O2.Element, rest: repeat (each O).Element) in
            (first, second, repeat each rest)
        }
    }
}

/// The engine of the collection forms of `combineLatest`: the latest value of each source, boxed
/// as `Any`, handed to `project` outside the lock. The storage is not generic, so the per-element
/// path needs no run-time generic metadata beyond the observer's. (The fixed-arity forms use the
/// typed engine, ``CombineLatestTyped``.)
final class CombineLatestProducer<Result>: Producer<Result>, @unchecked Sendable {
    typealias Projection = ([Any?]) throws -> Result

    let sources: [Observable<Any>]
    let emitsWhenEmpty: Bool
    let project: Projection

    init(sources: [Observable<Any>], emitsWhenEmpty: Bool, project: @escaping Projection) {
        self.sources = sources
        self.emitsWhenEmpty = emitsWhenEmpty
        self.project = project
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = CombineLatestSink<Observer>(count: sources.count, project: project, observer: observer, cancel: cancel)
        let subscription = sink.run(sources, emitsWhenEmpty: emitsWhenEmpty)
        return (sink, subscription)
    }
}

/// The sink of the collection forms of `combineLatest`: keeps the latest values and carries out
/// the decisions of its ``CombineLatestState``, all under the sink's lock.
final class CombineLatestSink<Observer: ObserverType>: OrderedDeliverySink<[Any?], Observer>, @unchecked Sendable {
    /// The latest value of each source (`nil` until it sends one).
    private var values: [Any?]
    /// The rules: when to emit, and when the sequence ends.
    private var state: CombineLatestState
    /// What each source has done (sent a value, completed), for the rules.
    private var sources: [CombineLatestState.Source]
    /// Each source's subscription.
    private let subscriptions: [SingleAssignmentDisposable]

    /// A sink for `count` sources whose latest values `project` combines.
    init(count: Int, project: @escaping ([Any?]) throws -> Observer.Element, observer: Observer, cancel: Cancelable) {
        values = Array(repeating: nil, count: count)
        state = CombineLatestState(count: count)
        sources = Array(repeating: CombineLatestState.Source(), count: count)
        subscriptions = (0 ..< count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, cancel: cancel, render: project)
    }

    /// Subscribes to `sources`; with none, emits `[]` (if `emitsWhenEmpty`) and completes.
    func run(_ sources: [Observable<Any>], emitsWhenEmpty: Bool) -> Disposable {
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(CombineLatestObserver(sink: self, index: index)))
        }
        if sources.isEmpty {
            let mustDrain = lock.withLock { () -> Bool in
                _ = state.stop()
                let first = emitsWhenEmpty ? enqueueLocked(.value([])) : false
                let second = enqueueLocked(.completed)
                return first || second
            }
            if mustDrain { drain() }
        }
        return Disposables.create(subscriptions)
    }

    /// Source `index` sent `value`.
    fileprivate func next(_ value: Any, at index: Int) {
        lock.lock()
        let action = state.next(&sources[index])
        var mustDrain = false
        switch action {
        case .ignore:
            break
        case .wait:
            values[index] = value
        case .emit:
            values[index] = value
            mustDrain = enqueueLocked(.value(values))
        case .complete:
            values[index] = value
            mustDrain = enqueueLocked(.completed)
        }
        lock.unlock()
        if mustDrain { drain() }
    }

    /// A source failed with `error`.
    fileprivate func fail(_ error: Swift.Error) {
        let mustDrain = lock.withLock { () -> Bool in
            state.stop() ? enqueueLocked(.error(error)) : false
        }
        if mustDrain { drain() }
    }

    /// Source `index` completed.
    fileprivate func complete(at index: Int) {
        let (mustDrain, detach) = lock.withLock { () -> (Bool, Bool) in
            switch state.completed(&sources[index]) {
            case .ignore: return (false, false)
            case .detach: return (false, true)
            case .complete: return (enqueueLocked(.completed), false)
            }
        }
        if detach { subscriptions[index].dispose() }
        if mustDrain { drain() }
    }
}

private struct CombineLatestObserver<Observer: ObserverType>: ObserverType {
    let sink: CombineLatestSink<Observer>
    let index: Int

    func on(_ event: Event<Any>) {
        switch event {
        case .next(let value): sink.next(value, at: index)
        case .error(let error): sink.fail(error)
        case .completed: sink.complete(at: index)
        }
    }
}
