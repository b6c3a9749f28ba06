extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds with `resultSelector` of all the elements once every single has succeeded; fails
    /// as soon as one fails. Two sources or more, of any types.
    ///
    ///     a: --(1|)
    ///     b: ----(2|)
    ///     zip(a, b) { $0 + $1 }
    ///        ----(3|)
    ///
    /// - Parameters:
    ///   - source1: The first single.
    ///   - source2: The second single.
    ///   - sources: More singles.
    ///   - resultSelector: Combines the elements.
    /// - Returns: The combined single.
    public static func zip<E1, E2, each E>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ sources: repeat Single<each E>,
        resultSelector: @escaping (E1, E2, repeat each E) throws -> Element
    ) -> Single<Element> {
        Single(raw: Observable.zip(source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable(), resultSelector: resultSelector))
    }

    /// Succeeds with `resultSelector` of the elements of a collection of singles, in order,
    /// once all have succeeded (at once with `[]` for an empty collection).
    ///
    ///     a: --(1|)
    ///     b: ----(2|)
    ///     zip([a, b]) { $0.reduce(0, +) }
    ///        ----(3|)
    ///
    /// - Parameters:
    ///   - collection: The singles.
    ///   - resultSelector: Combines the elements.
    /// - Returns: The combined single.
    public static func zip<Collection: Swift.Collection, Source>(
        _ collection: Collection, resultSelector: @escaping ([Source]) throws -> Element
    ) -> Single<Element> where Collection.Element == Single<Source> {
        if collection.isEmpty {
            return Single(raw: Observable.deferred { .just(try resultSelector([])) })
        }
        return Single(raw: Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Succeeds with the elements of a collection of singles, in order, once all have
    /// succeeded (at once with `[]` for an empty collection).
    ///
    ///     a: --(1|)
    ///     b: ----(2|)
    ///     zip([a, b])
    ///        ----(A|)
    ///     where A = [1, 2]
    ///
    /// - Parameter collection: The singles.
    /// - Returns: The single of all the elements.
    public static func zip<Collection: Swift.Collection, Source>(_ collection: Collection) -> Single<Element> where Collection.Element == Single<Source>, Element == [Source] {
        zip(collection) { $0 }
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element == Any {
    /// Succeeds with a tuple of all the elements once every single has succeeded. Written
    /// `Single.zip(a, b, …)`.
    ///
    ///     a: --(1|)
    ///     b: ----(5|)
    ///     zip(a, b)
    ///        ----(A|)
    ///     where A = (1, 5)
    ///
    /// - Parameters:
    ///   - source1: The first single.
    ///   - source2: The second single.
    ///   - sources: More singles.
    /// - Returns: The single of the tuple.
    public static func zip<E1, E2, each E>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ sources: repeat Single<each E>
    ) -> Single<(E1, E2, repeat each E)> {
        Single(raw: Observable.zip(source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable()) { (first: E1, second: E2, rest: repeat each E) in
            (first, second, repeat each rest)
        })
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds with `resultSelector` of all the elements once every maybe has succeeded;
    /// completes empty as soon as one completes empty and fails as soon as one fails.
    ///
    ///     a: --(1|)
    ///     b: ----(2|)
    ///     zip(a, b) { $0 + $1 }
    ///        ----(3|)
    ///
    ///     a: --(1|)
    ///     b: ----|
    ///     zip(a, b) { $0 + $1 }
    ///        ----|
    ///
    /// - Parameters:
    ///   - source1: The first maybe.
    ///   - source2: The second maybe.
    ///   - sources: More maybes.
    ///   - resultSelector: Combines the elements.
    /// - Returns: The combined maybe.
    public static func zip<E1, E2, each E>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ sources: repeat Maybe<each E>,
        resultSelector: @escaping (E1, E2, repeat each E) throws -> Element
    ) -> Maybe<Element> {
        Maybe(raw: Observable.zip(source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element == Any {
    /// Succeeds with a tuple of all the elements once every maybe has succeeded. Written
    /// `Maybe.zip(a, b, …)`.
    ///
    ///     a: --(1|)
    ///     b: ----(5|)
    ///     zip(a, b)
    ///        ----(A|)
    ///     where A = (1, 5)
    ///
    /// - Parameters:
    ///   - source1: The first maybe.
    ///   - source2: The second maybe.
    ///   - sources: More maybes.
    /// - Returns: The maybe of the tuple.
    public static func zip<E1, E2, each E>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ sources: repeat Maybe<each E>
    ) -> Maybe<(E1, E2, repeat each E)> {
        Maybe(raw: Observable.zip(source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable()) { (first: E1, second: E2, rest: repeat each E) in
            (first, second, repeat each rest)
        })
    }
}
