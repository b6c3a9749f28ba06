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
        TypedCombining(.zip, source1, source2, repeat each sources) { (first: O1.Element, second: O2.Element, rest: repeat (each O).Element) in
            (first, second, repeat each rest)
        }
    }
}

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
        TypedCombining(.zip, source1, source2, repeat each sources, resultSelector: resultSelector)
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
        CollectionCombiningProducer(sources: collection.map { AnyBoxingObservable($0) }, rules: ZipCollectionRules.self) { values in
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
        CollectionCombiningProducer(sources: collection.map { AnyBoxingObservable($0) }, rules: ZipCollectionRules.self) { values in
            values.map { $0.unsafelyUnwrapped as! Element }
        }
    }
}

/// The rules of the collection forms of `zip` (see ``CollectionCombiningSink``), with the
/// values they keep: a queue of waiting values per source, and the decisions of a ``ZipState``
/// carried out on them (completing also when a value can never get partners, as RxSwift's
/// collection form does; its fixed-arity `zip` only completes when all sources have).
struct ZipCollectionRules: CollectionCombiningRules {
    /// The waiting values of each source, oldest first.
    private var queues: [ZipQueue]
    /// The values taken for the latest combination, reused from one to the next.
    private var heads: [Any?]
    /// The rules: when to emit, and when the sequence ends.
    private var state: ZipState
    /// What each source has done (values waiting, completed), for the rules.
    private var sources: [ZipState.Source]

    init(count: Int) {
        queues = Array(repeating: ZipQueue(), count: count)
        heads = Array(repeating: nil, count: count)
        state = ZipState(count: count, completesWhenStarved: true)
        sources = Array(repeating: ZipState.Source(), count: count)
    }

    /// No source: completion at once.
    static var emptyCombination: [Any?]? { nil }

    mutating func next(_ value: Any, at index: Int) -> OrderedDeliveryWork<[Any?]>? {
        switch state.next(&sources[index]) {
        case .ignore:
            return nil
        case .wait:
            queues[index].append(value)
            return nil
        case .emit:
            queues[index].append(value)
            for source in 0 ..< state.count {
                state.claim(&sources[source])
                heads[source] = queues[source].removeFirst()
            }
            return .value(heads)
        case .complete:
            return .completed
        }
    }

    mutating func stop() -> Bool { state.stop() }

    mutating func completed(at index: Int) -> SourcesEnd.OnCompleted {
        state.completed(&sources[index])
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
