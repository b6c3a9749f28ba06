extension ObservableType {
    /// Pairs up the elements of several sequences by index and combines each set with
    /// `resultSelector`: the first elements together, then the second ones, and so on.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----A-B-----------C--|
    ///     zip(a, b) { "\($0)\($1)" }
    ///        ----1A--2B--------3C-|
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
        var erased: [Observable<Any>] = [AnyBoxingObservable(source1), AnyBoxingObservable(source2)]
        for source in repeat each sources {
            erased.append(AnyBoxingObservable(source))
        }
        return ZipProducer(sources: erased, completesWhenStarved: false) { values in
            var cursor = UnboxingCursor(values)
            return try resultSelector(cursor.next(), cursor.next(), repeat cursor.next((each O).Element.self))
        }
    }

    /// Pairs up the elements of a collection of sequences by index and combines each set with
    /// `resultSelector`.
    ///
    ///     a: --1-----2---|
    ///     b: ----3-4-------|
    ///     zip([a, b]) { $0.reduce(0, +) }
    ///        ----4---6-----|
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
        ZipProducer(sources: collection.map { $0.asObservable() }, completesWhenStarved: true) { values in
            try resultSelector(values.map { $0.unsafelyUnwrapped })
        }
    }

    /// Pairs up the elements of a collection of sequences by index into arrays.
    ///
    ///     a: --1-----2---|
    ///     b: ----3-4-------|
    ///     zip([a, b])
    ///        ----[1,3]---[2,4]-----|
    ///
    /// Completion and failure as in ``ObservableType/zip(_:resultSelector:)``.
    ///
    /// - Parameter collection: The sources.
    /// - Returns: The sequence of arrays of n-th elements, in source order.
    public static func zip<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableType, Sources.Element.Element == Element {
        ZipProducer(sources: collection.map { $0.asObservable() }, completesWhenStarved: true) { values in
            values.map { $0.unsafelyUnwrapped }
        }
    }
}

extension ObservableType where Element == Any {
    /// Pairs up the elements of several sequences by index into tuples.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----A-B-----------C--|
    ///     zip(a, b)
    ///        ----(1,A)--(2,B)--------(3,C)-|
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
        var erased: [Observable<Any>] = [AnyBoxingObservable(source1), AnyBoxingObservable(source2)]
        for source in repeat each sources {
            erased.append(AnyBoxingObservable(source))
        }
        return ZipProducer(sources: erased, completesWhenStarved: false) { values in
            var cursor = UnboxingCursor(values)
            return (cursor.next(O1.Element.self), cursor.next(O2.Element.self), repeat cursor.next((each O).Element.self))
        }
    }
}

/// The engine of every `zip`: a queue of waiting values per source; when each queue holds one,
/// the heads are taken under the lock and handed to `project` outside it.
///
/// `completesWhenStarved` selects RxSwift's collection behaviour (also complete when a value
/// arrives that can never be matched); its fixed-arity `zip` only completes when all sources have.
final class ZipProducer<Value, Result>: Producer<Result>, @unchecked Sendable {
    typealias Projection = ([Value?]) throws -> Result

    let sources: [Observable<Value>]
    let completesWhenStarved: Bool
    let project: Projection

    init(sources: [Observable<Value>], completesWhenStarved: Bool, project: @escaping Projection) {
        self.sources = sources
        self.completesWhenStarved = completesWhenStarved
        self.project = project
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = ZipSink<Value, Observer>(count: sources.count, completesWhenStarved: completesWhenStarved, project: project, observer: observer, cancel: cancel)
        let subscription = sink.run(sources)
        return (sink, subscription)
    }
}

final class ZipSink<Value, Observer: ObserverType>: OrderedDeliverySink<[Value?], Observer>, @unchecked Sendable {
    private let count: Int
    private let completesWhenStarved: Bool
    private var queues: [ZipQueue<Value>]
    private var nonEmptyCount = 0
    private var heads: [Value?]
    private var isDone: [Bool]
    private var doneCount = 0
    private var stopped = false
    private let subscriptions: [SingleAssignmentDisposable]

    init(count: Int, completesWhenStarved: Bool, project: @escaping ([Value?]) throws -> Observer.Element, observer: Observer, cancel: Cancelable) {
        self.count = count
        self.completesWhenStarved = completesWhenStarved
        queues = Array(repeating: ZipQueue(), count: count)
        heads = Array(repeating: nil, count: count)
        isDone = Array(repeating: false, count: count)
        subscriptions = (0 ..< count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, cancel: cancel, render: project)
    }

    func run(_ sources: [Observable<Value>]) -> Disposable {
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(ZipObserver(sink: self, index: index)))
        }
        if sources.isEmpty {
            let mustDrain = lock.withLock { () -> Bool in
                stopped = true
                return enqueueLocked(.terminal(.completed))
            }
            if mustDrain { drain() }
        }
        return Disposables.create(subscriptions)
    }

    fileprivate func on(_ event: Event<Value>, at index: Int) {
        switch event {
        case .next(let value):
            lock.lock()
            if stopped {
                lock.unlock()
                return
            }
            queues[index].append(value)
            if queues[index].count == 1 { nonEmptyCount += 1 }
            var mustDrain = false
            if nonEmptyCount == count {
                nonEmptyCount = 0
                for source in 0 ..< count {
                    heads[source] = queues[source].removeFirst()
                    if !queues[source].isEmpty { nonEmptyCount += 1 }
                }
                mustDrain = enqueueLocked(.value(heads))
            } else if completesWhenStarved, doneCount == count - 1 {
                stopped = true
                mustDrain = enqueueLocked(.terminal(.completed))
            }
            lock.unlock()
            if mustDrain { drain() }
        case .error(let error):
            let mustDrain = lock.withLock { () -> Bool in
                if stopped { return false }
                stopped = true
                return enqueueLocked(.terminal(.error(error)))
            }
            if mustDrain { drain() }
        case .completed:
            let (mustDrain, allDone) = lock.withLock { () -> (Bool, Bool) in
                if stopped || isDone[index] { return (false, true) }
                isDone[index] = true
                doneCount += 1
                if doneCount < count { return (false, false) }
                stopped = true
                return (enqueueLocked(.terminal(.completed)), true)
            }
            if !allDone { subscriptions[index].dispose() }
            if mustDrain { drain() }
        }
    }
}

private struct ZipObserver<Value, Observer: ObserverType>: ObserverType {
    let sink: ZipSink<Value, Observer>
    let index: Int

    func on(_ event: Event<Value>) { sink.on(event, at: index) }
}

/// A first-in first-out queue over an array with a moving head, compacted as it drains.
struct ZipQueue<Value> {
    private var storage: [Value] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }

    mutating func append(_ value: Value) { storage.append(value) }

    mutating func removeFirst() -> Value {
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
