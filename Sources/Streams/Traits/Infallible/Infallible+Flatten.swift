// Infallible's flattening operators (flatMap and its kin, concat, merge): each wraps the
// Observable operator of the same name, as those in Infallible+Operators.swift do.

extension InfallibleType {
    /// Maps each element to a sequence and merges the elements of all of them.
    ///
    ///     source: --a-b--------|
    ///     a:        1---3---5|
    ///     b:          -2---4|
    ///     flatMap { $0 }
    ///             --1--23--45--|
    ///
    /// The inner sequences should not fail either: an error from one fails the result.
    ///
    /// - Parameter selector: Makes the inner sequence for an element.
    /// - Returns: The merged elements.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMap(selector))
    }

    /// Maps each element to a sequence and sends the elements of the latest one only.
    ///
    ///     source: --a-------b-----|
    ///     a:        1--2--3--4|
    ///     b:                5---6|
    ///     flatMapLatest { $0 }
    ///             --1--2--3-5---6-|
    ///
    /// - Parameter selector: Makes the inner sequence for an element.
    /// - Returns: The elements of the latest inner sequence.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapLatest(selector))
    }

    /// Maps an element to a sequence only when no earlier inner sequence is still running, and
    /// sends its elements.
    ///
    ///     source: --a--b---c------|
    ///     a:        1---2|
    ///     c:               3---4|
    ///     flatMapFirst { $0 }
    ///             --1---2--3---4--|
    ///
    /// - Parameter selector: Makes the inner sequence for an element.
    /// - Returns: The elements of the inner sequences that were started.
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapFirst(selector))
    }

    /// Maps each element to a sequence and sends their elements one sequence after another.
    ///
    ///     source: --a--b-------|
    ///     a:        1---2|
    ///     b:             -3-4|
    ///     concatMap { $0 }
    ///             --1---2-3-4--|
    ///
    /// - Parameter selector: Makes the inner sequence for an element.
    /// - Returns: The inner sequences' elements, in order.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().concatMap(selector))
    }

    /// Sends this sequence's elements, then, once it completes, those of `second`.
    ///
    ///     self:   --1--2--|
    ///     second:         --3--|
    ///     concat(second)
    ///             --1--2----3--|
    ///
    /// - Parameter second: The sequence that follows.
    /// - Returns: Both sequences, one after the other.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Infallible<Element> where Source.Element == Element {
        Infallible<Element>(asObservable().concat(second))
    }

    /// Sends the elements of each sequence of `sequence`, one sequence after another.
    ///
    ///     a: --1--|
    ///     b:      -2--3|
    ///     concat([a, b])
    ///        --1---2--3|
    ///
    /// - Parameter sequence: The sequences, in order.
    /// - Returns: Their elements, one sequence after another.
    public static func concat<Sources: Swift.Sequence>(_ sequence: Sources) -> Infallible<Element> where Sources.Element == Infallible<Element> {
        Infallible<Element>(Observable.concat(sequence.map { $0.asObservable() }))
    }

    /// Sends the elements of each sequence of `collection`, one sequence after another.
    ///
    ///     a: --1--|
    ///     b:      -2--3|
    ///     concat([a, b])
    ///        --1---2--3|
    ///
    /// - Parameter collection: The sequences, in order.
    /// - Returns: Their elements, one sequence after another.
    public static func concat<Sources: Swift.Collection>(_ collection: Sources) -> Infallible<Element> where Sources.Element == Infallible<Element> {
        Infallible<Element>(Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Sends the elements of each of `sources`, one sequence after another.
    ///
    ///     a: --1--|
    ///     b:      -2--3|
    ///     concat(a, b)
    ///        --1---2--3|
    ///
    /// - Parameter sources: The sequences, in order.
    /// - Returns: Their elements, one sequence after another.
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible<Element>(Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Sends the elements of all of `sources` as they come; completes when all have.
    ///
    ///     a: --1-----3--|
    ///     b: ----2-----4--|
    ///     merge([a, b])
    ///        --1-2---3-4--|
    ///
    /// (RxSwift 6's collection form concatenates by mistake; this one merges, as its name says.)
    ///
    /// - Parameter sources: The sequences to merge.
    /// - Returns: Their elements, interleaved.
    public static func merge<Sources: Swift.Collection>(_ sources: Sources) -> Infallible<Element> where Sources.Element == Infallible<Element> {
        Infallible<Element>(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Sends the elements of all of `sources` as they come; completes when all have.
    ///
    ///     a: --1-----3--|
    ///     b: ----2-----4--|
    ///     merge([a, b])
    ///        --1-2---3-4--|
    ///
    /// - Parameter sources: The sequences to merge.
    /// - Returns: Their elements, interleaved.
    public static func merge(_ sources: [Infallible<Element>]) -> Infallible<Element> {
        Infallible<Element>(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Sends the elements of all of `sources` as they come; completes when all have.
    ///
    ///     a: --1-----3--|
    ///     b: ----2-----4--|
    ///     merge(a, b)
    ///        --1-2---3-4--|
    ///
    /// - Parameter sources: The sequences to merge.
    /// - Returns: Their elements, interleaved.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible<Element>(Observable.merge(sources.map { $0.asObservable() }))
    }
}
