extension ObservableType {
    /// Pairs up the elements of several sequences by index and combines each set with
    /// `resultSelector`: the first elements together, then the second ones, and so on.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip(a, b) { $0 + $1 }
    ///        ----4---6---------8--|
    ///
    /// Takes two or more sources of any element types (RxSwift offers 2 to 8). Elements that
    /// arrive early wait, in order, for their partners. Fails as soon as a source fails;
    /// completes when every source has completed.
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - sources: Further sources.
    ///   - resultSelector: Makes an element from the n-th element of each source; a thrown
    ///     error ends the sequence with that error.
    /// - Returns: The zipped sequence.
    public static func zip<O1: ObservableType, O2: ObservableType, each O: ObservableType>(
        _ source1: O1, _ source2: O2, _ sources: repeat each O,
        resultSelector: @escaping (O1.Element, O2.Element, repeat (each O).Element) throws -> Element
    ) -> Observable<Element> {
        ZipTyped(source1, source2, repeat each sources, resultSelector: resultSelector)
    }

    /// Pairs up the elements of a collection of sequences by index and combines each set with
    /// `resultSelector`.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip([a, b]) { $0.reduce(0, +) }
    ///        ----4---6---------8--|
    ///
    /// Fails as soon as a source fails. Completes when every source has completed, or when a
    /// source sends an element that can never get partners because every other source has
    /// completed and one of them has nothing left waiting. An empty collection completes at once.
    ///
    /// - Parameters:
    ///   - collection: The sources.
    ///   - resultSelector: Makes an element from the n-th element of each source, in order.
    /// - Returns: The zipped sequence.
    public static func zip<Sources: Collection>(
        _ collection: Sources,
        resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableType {
        ZipProducer(sources: collection.map { AnyBoxingObservable($0) }, completesWhenStarved: true) { values in
            try resultSelector(values.map { $0.unsafelyUnwrapped as! Sources.Element.Element })
        }
    }

    /// Pairs up the elements of a collection of sequences by index into arrays.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip([a, b])
    ///        ----A---B---------C--|
    ///     where A = [1, 3], B = [2, 4], C = [3, 5]
    ///
    /// Completion and failure as in ``ObservableType/zip(_:resultSelector:)``.
    ///
    /// - Parameter collection: The sources.
    /// - Returns: The sequence of arrays of n-th elements, in source order.
    public static func zip<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableType, Sources.Element.Element == Element {
        ZipProducer(sources: collection.map { AnyBoxingObservable($0) }, completesWhenStarved: true) { values in
            values.map { $0.unsafelyUnwrapped as! Element }
        }
    }
}

extension ObservableType where Element == Any {
    /// Pairs up the elements of several sequences by index into tuples.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip(a, b)
    ///        ----A---B---------C--|
    ///     where A = (1, 3), B = (2, 4), C = (3, 5)
    ///
    /// Completion and failure as in ``ObservableType/zip(_:_:_:resultSelector:)``.
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - sources: Further sources.
    /// - Returns: The sequence of tuples of n-th elements, in source order.
    public static func zip<O1: ObservableType, O2: ObservableType, each O: ObservableType>(
        _ source1: O1, _ source2: O2, _ sources: repeat each O
    ) -> Observable<(O1.Element, O2.Element, repeat (each O).Element)> {
        ZipTyped(source1, source2, repeat each sources) { (first: O1.Element, second: O2.Element, rest: repeat (each O).Element) in
            (first, second, repeat each rest)
        }
    }
}

/// The engine of the collection forms of `zip`: a queue of waiting values per source, boxed as
/// `Any`; when each queue holds one, the heads are taken under the lock and handed to `project`
/// outside it. (The fixed-arity forms use the typed engine, ``ZipTyped``.)
///
/// `completesWhenStarved` selects RxSwift's collection behaviour (also complete when a value
/// arrives that can never be matched); its fixed-arity `zip` only completes when all sources have.
final class ZipProducer<Result>: Producer<Result>, @unchecked Sendable {
    typealias Projection = ([Any?]) throws -> Result

    let sources: [Observable<Any>]
    let completesWhenStarved: Bool
    let project: Projection

    init(sources: [Observable<Any>], completesWhenStarved: Bool, project: @escaping Projection) {
        self.sources = sources
        self.completesWhenStarved = completesWhenStarved
        self.project = project
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = ZipSink<Observer>(count: sources.count, completesWhenStarved: completesWhenStarved, project: project, observer: observer, cancel: cancel)
        let subscription = sink.run(sources)
        return (sink, subscription)
    }
}

/// The sink of the collection forms of `zip`: keeps a queue of waiting values per source and
/// carries out the decisions of its ``ZipState``, all under the sink's lock.
final class ZipSink<Observer: ObserverType>: OrderedDeliverySink<[Any?], Observer>, @unchecked Sendable {
    /// The number of sources.
    private let count: Int
    /// The waiting values of each source, oldest first.
    private var queues: [ZipQueue]
    /// The values taken for the latest combination, reused from one to the next.
    private var heads: [Any?]
    /// The rules: when to emit, and when the sequence ends.
    private var state: ZipState
    /// What each source has done (values waiting, completed), for the rules.
    private var sources: [ZipState.Source]
    /// Each source's subscription.
    private let subscriptions: [SingleAssignmentDisposable]

    /// A sink for `count` sources whose values `project` combines.
    init(count: Int, completesWhenStarved: Bool, project: @escaping ([Any?]) throws -> Observer.Element, observer: Observer, cancel: Cancelable) {
        self.count = count
        queues = Array(repeating: ZipQueue(), count: count)
        heads = Array(repeating: nil, count: count)
        state = ZipState(count: count, completesWhenStarved: completesWhenStarved)
        sources = Array(repeating: ZipState.Source(), count: count)
        subscriptions = (0 ..< count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, cancel: cancel, render: project)
    }

    /// Subscribes to `sources`; with none, completes.
    func run(_ sources: [Observable<Any>]) -> Disposable {
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(ZipObserver(sink: self, index: index)))
        }
        if sources.isEmpty {
            let mustDrain = lock.withLock { () -> Bool in
                state.stop() ? enqueueLocked(.completed) : false
            }
            if mustDrain { drain() }
        }
        return Disposables.create(subscriptions)
    }

    /// Source `index` sent `value`.
    fileprivate func next(_ value: Any, at index: Int) {
        lock.lock()
        var mustDrain = false
        switch state.next(&sources[index]) {
        case .ignore:
            break
        case .wait:
            queues[index].append(value)
        case .emit:
            queues[index].append(value)
            for source in 0 ..< count {
                state.claim(&sources[source])
                heads[source] = queues[source].removeFirst()
            }
            mustDrain = enqueueLocked(.value(heads))
        case .complete:
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

private struct ZipObserver<Observer: ObserverType>: ObserverType {
    let sink: ZipSink<Observer>
    let index: Int

    func on(_ event: Event<Any>) {
        switch event {
        case .next(let value): sink.next(value, at: index)
        case .error(let error): sink.fail(error)
        case .completed: sink.complete(at: index)
        }
    }
}

/// A first-in first-out queue of boxed values over an array with a moving head, compacted as
/// it drains.
struct ZipQueue {
    private var storage: [Any] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }

    mutating func append(_ value: Any) { storage.append(value) }

    mutating func removeFirst() -> Any {
        let value = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return value
    }
}
