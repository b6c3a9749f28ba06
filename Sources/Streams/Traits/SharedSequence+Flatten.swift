extension SharedSequenceConvertibleType {
    /// Maps each element to a shared sequence and follows only the latest one.
    ///
    ///     source: --a-------b-----|
    ///     a:        1--2--3--4|
    ///     b:                5---6|
    ///     flatMapLatest { $0 }
    ///             --1--2--3-5---6-|
    ///
    /// - Parameter selector: Makes the inner shared sequence for an element.
    /// - Returns: The elements of the latest inner sequence.
    public func flatMapLatest<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapLatest { selector($0).asObservable() })
    }

    /// Maps each element to a shared sequence and merges all of them.
    ///
    ///     source: --a-b--------|
    ///     a:        1---3---5|
    ///     b:          -2---4|
    ///     flatMap { $0 }
    ///             --1--23--45--|
    ///
    /// - Parameter selector: Makes the inner shared sequence for an element.
    /// - Returns: The merged elements of every inner sequence.
    public func flatMap<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMap { selector($0).asObservable() })
    }

    /// Maps an element to a shared sequence only while no earlier inner sequence is running.
    ///
    ///     source: --a--b---c------|
    ///     a:        1---2|
    ///     c:               3---4|
    ///     flatMapFirst { $0 }
    ///             --1---2--3---4--|
    ///
    /// - Parameter selector: Makes the inner shared sequence for an element.
    /// - Returns: The elements of the inner sequences that were not skipped.
    public func flatMapFirst<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapFirst { selector($0).asObservable() })
    }

    /// Combines each element with the latest element of `second`, when it has one.
    ///
    ///     self:   ---1-----2---3--|
    ///     second: -----5-----6------
    ///     withLatestFrom(second) { $0 + $1 }
    ///             ---------7---9--|
    ///
    /// - Parameters:
    ///   - second: The shared sequence whose latest element is used.
    ///   - resultSelector: Combines the two elements.
    /// - Returns: The combined shared sequence.
    public func withLatestFrom<Second: SharedSequenceConvertibleType, Result>(
        _ second: Second,
        resultSelector: @escaping (Element, Second.Element) -> Result
    ) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().withLatestFrom(second.asObservable(), resultSelector: resultSelector))
    }

    /// The latest element of `second` at each element of this sequence, when it has one.
    ///
    ///     self:   ---1-----2---3--|
    ///     second: -----5-----6------
    ///     withLatestFrom(second)
    ///             ---------5---6--|
    ///
    /// - Parameter second: The shared sequence whose latest element is used.
    /// - Returns: The shared sequence of `second`'s latest elements.
    public func withLatestFrom<Second: SharedSequenceConvertibleType>(_ second: Second) -> SharedSequence<SharingStrategy, Second.Element> {
        SharedSequence(asObservable().withLatestFrom(second.asObservable()))
    }

    /// Sends each intermediate result of folding the elements with `accumulator`.
    ///
    ///     -1-2-3-|   scan(0, accumulator: +)   -1-3-6-|
    ///
    /// - Parameters:
    ///   - seed: The initial accumulated value.
    ///   - accumulator: Combines the accumulated value with an element.
    /// - Returns: The shared sequence of accumulated values.
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate) -> SharedSequence<SharingStrategy, Accumulate> {
        SharedSequence(asObservable().scan(seed, accumulator: accumulator))
    }
}

extension SharedSequence {

    /// Combines the latest elements of a collection of shared sequences with `resultSelector`.
    ///
    /// - Parameters:
    ///   - collection: The sources.
    ///   - resultSelector: Makes an element from the latest elements, in source order.
    /// - Returns: The combined shared sequence.
    public static func combineLatest<Sources: Collection>(
        _ collection: Sources,
        resultSelector: @escaping ([Sources.Element.Element]) -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where Sources.Element: SharedSequenceConvertibleType, Sources.Element.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Combines the latest elements of a collection of shared sequences into arrays.
    ///
    ///     combineLatest([a, b]):  ----[1,A]-[2,A]-[2,B]-
    ///
    /// - Parameter collection: The sources.
    /// - Returns: The shared sequence of arrays of latest elements, in source order.
    public static func combineLatest<Sources: Collection, Value>(_ collection: Sources) -> SharedSequence<SharingStrategy, [Value]>
    where Element == [Value], Sources.Element: SharedSequenceConvertibleType, Sources.Element.SharingStrategy == SharingStrategy, Sources.Element.Element == Value {
        SharedSequence<SharingStrategy, [Value]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }
}

