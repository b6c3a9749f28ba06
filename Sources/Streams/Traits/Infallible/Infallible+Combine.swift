// combineLatest and zip of infallible sequences: the Observable engines, with any number of
// sources (a parameter pack, where RxSwift writes out arities 2 to 8) and collections.

extension InfallibleType {
    /// Combines the latest elements of the sources with `resultSelector` each time any of them
    /// sends one, once every one has sent at least one.
    ///
    ///     a: --1-----2-----|
    ///     b: -----3-----4------|
    ///     combineLatest(a, b) { $0 + $1 }
    ///        -----4--5--6------|
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - sources: Any further sources.
    ///   - resultSelector: Combines one latest element of each source.
    /// - Returns: The combined elements; completes when every source has.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, each I: InfallibleType>(
        _ source1: I1, _ source2: I2, _ sources: repeat each I,
        resultSelector: @escaping (I1.Element, I2.Element, repeat (each I).Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible<Element>(Observable.combineLatest(
            source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable(),
            resultSelector: resultSelector
        ))
    }

    /// Pairs up the elements of the sources by index with `resultSelector`.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip(a, b) { $0 + $1 }
    ///        ----4---6---------8--|
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - sources: Any further sources.
    ///   - resultSelector: Combines the elements at one index.
    /// - Returns: The combined elements; completes once a finished source has nothing left to pair.
    public static func zip<I1: InfallibleType, I2: InfallibleType, each I: InfallibleType>(
        _ source1: I1, _ source2: I2, _ sources: repeat each I,
        resultSelector: @escaping (I1.Element, I2.Element, repeat (each I).Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible<Element>(Observable.zip(
            source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable(),
            resultSelector: resultSelector
        ))
    }

    /// Combines the latest elements of a collection of sources with `resultSelector` each time
    /// any of them sends one, once every one has sent one. An empty collection completes at once.
    ///
    ///     a: --1-----2-----|
    ///     b: -----3-----4------|
    ///     combineLatest([a, b]) { $0.reduce(0, +) }
    ///        -----4--5--6------|
    ///
    /// - Parameters:
    ///   - collection: The sources.
    ///   - resultSelector: Combines the latest element of each source, in the collection's order.
    /// - Returns: The combined elements.
    public static func combineLatest<Sources: Swift.Collection>(
        _ collection: Sources,
        resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Infallible<Element> where Sources.Element: InfallibleType {
        Infallible<Element>(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Combines the latest elements of a collection of sources into arrays each time any of
    /// them sends one, once every one has sent one.
    ///
    ///     a: --1-----2-----|
    ///     b: -----3-----4------|
    ///     combineLatest([a, b])
    ///        -----A--B--C------|
    ///     where A = [1, 3], B = [2, 3], C = [2, 4]
    ///
    /// - Parameter collection: The sources.
    /// - Returns: The latest element of each source, in the collection's order.
    public static func combineLatest<Sources: Swift.Collection>(_ collection: Sources) -> Infallible<[Element]>
    where Sources.Element: InfallibleType, Sources.Element.Element == Element {
        Infallible<[Element]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }

    /// Pairs up the elements of a collection of sources by index with `resultSelector`. An empty
    /// collection completes at once.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip([a, b]) { $0.reduce(0, +) }
    ///        ----4---6---------8--|
    ///
    /// - Parameters:
    ///   - collection: The sources.
    ///   - resultSelector: Combines the elements at one index, in the collection's order.
    /// - Returns: The combined elements.
    public static func zip<Sources: Swift.Collection>(
        _ collection: Sources,
        resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Infallible<Element> where Sources.Element: InfallibleType {
        Infallible<Element>(Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Pairs up the elements of a collection of sources by index into arrays.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip([a, b])
    ///        ----A---B---------C--|
    ///     where A = [1, 3], B = [2, 4], C = [3, 5]
    ///
    /// - Parameter collection: The sources.
    /// - Returns: The elements at each index, in the collection's order.
    public static func zip<Sources: Swift.Collection>(_ collection: Sources) -> Infallible<[Element]>
    where Sources.Element: InfallibleType, Sources.Element.Element == Element {
        Infallible<[Element]>(Observable.zip(collection.map { $0.asObservable() }))
    }
}

extension InfallibleType where Element == Any {
    /// Combines the latest elements of the sources into tuples each time any of them sends
    /// one, once every one has sent at least one.
    ///
    ///     a: --1-----2-----|
    ///     b: -----3-----4------|
    ///     combineLatest(a, b)
    ///        -----A--B--C------|
    ///     where A = (1, 3), B = (2, 3), C = (2, 4)
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - sources: Any further sources.
    /// - Returns: Tuples of the latest elements.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, each I: InfallibleType>(
        _ source1: I1, _ source2: I2, _ sources: repeat each I
    ) -> Infallible<(I1.Element, I2.Element, repeat (each I).Element)> {
        Infallible<(I1.Element, I2.Element, repeat (each I).Element)>(Observable.combineLatest(
            source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable()
        ))
    }

    /// Pairs up the elements of the sources by index into tuples.
    ///
    ///     a: --1-----2-----3--|
    ///     b: ----3-4-----------5--|
    ///     zip(a, b)
    ///        ----A---B---------C--|
    ///     where A = (1, 3), B = (2, 4), C = (3, 5)
    ///
    /// - Parameters:
    ///   - source1: The first source.
    ///   - source2: The second source.
    ///   - sources: Any further sources.
    /// - Returns: Tuples of the elements at each index.
    public static func zip<I1: InfallibleType, I2: InfallibleType, each I: InfallibleType>(
        _ source1: I1, _ source2: I2, _ sources: repeat each I
    ) -> Infallible<(I1.Element, I2.Element, repeat (each I).Element)> {
        Infallible<(I1.Element, I2.Element, repeat (each I).Element)>(Observable.zip(
            source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable()
        ))
    }
}
