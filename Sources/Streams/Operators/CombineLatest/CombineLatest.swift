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
        TypedCombining(.combineLatest, source1, source2, repeat each sources, resultSelector: resultSelector)
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
        CollectionCombiningProducer(sources: collection.map { AnyBoxingObservable($0) }, rules: CombineLatestCollectionRules.self) { values in
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
        CollectionCombiningProducer(sources: collection.map { AnyBoxingObservable($0) }, rules: CombineLatestCollectionRules.self) { values in
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
        TypedCombining(.combineLatest, source1, source2, repeat each sources) { (first: O1.Element, second: O2.Element, rest: repeat (each O).Element) in
            (first, second, repeat each rest)
        }
    }
}

/// The rules of the collection forms of `combineLatest` (see ``CollectionCombiningSink``),
/// with the values they keep: the latest value of each source, and the decisions of a
/// ``CombineLatestState`` carried out on them.
struct CombineLatestCollectionRules: CollectionCombiningRules {
    /// The latest value of each source (`nil` until it sends one).
    private var values: [Any?]
    /// The rules: when to emit, and when the sequence ends.
    private var state: CombineLatestState
    /// What each source has done (sent a value, completed), for the rules.
    private var sources: [CombineLatestState.Source]

    init(count: Int) {
        values = Array(repeating: nil, count: count)
        state = CombineLatestState(count: count)
        sources = Array(repeating: CombineLatestState.Source(), count: count)
    }

    /// No source: one empty combination, then completion.
    static var emptyCombination: [Any?]? { [] }

    mutating func next(_ value: Any, at index: Int) -> OrderedDeliveryWork<[Any?]>? {
        switch state.next(&sources[index]) {
        case .ignore:
            return nil
        case .wait:
            values[index] = value
            return nil
        case .emit:
            values[index] = value
            return .value(values)
        case .complete:
            values[index] = value
            return .completed
        }
    }

    mutating func stop() -> Bool { state.stop() }

    mutating func completed(at index: Int) -> SourcesEnd.OnCompleted {
        state.completed(&sources[index])
    }
}
