extension ObservableType {
    /// Maps each element to a sequence with `selector` and concatenates those sequences: each
    /// inner sequence is subscribed only when the previous one has completed.
    ///
    ///     source: --a--b-------|
    ///     a:        1---2|
    ///     b:             -3-4|
    ///     concatMap { $0 }
    ///             --1---2-3-4--|
    ///
    /// Elements that arrive while an inner sequence runs wait, in order. Completes when the
    /// source and every inner sequence have completed; fails as soon as any of them fails or
    /// `selector` throws.
    ///
    /// - Parameter selector: Makes the inner sequence for an element.
    /// - Returns: The elements of the inner sequences, one sequence after another.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        Merge(source: asObservable(), maxConcurrent: 1, selector: selector)
    }
}
