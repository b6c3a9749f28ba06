extension ObservableType {
    /// Maps each element to a sequence with `selector` and merges the elements of all those
    /// sequences as they arrive.
    ///
    ///     source: --a-b--------|
    ///     a:        1---3---5|
    ///     b:          -2---4|
    ///     flatMap { $0 }
    ///             --1--23--45--|
    ///
    /// Completes when the source and every inner sequence have completed; fails as soon as
    /// any of them fails or `selector` throws.
    ///
    /// - Parameter selector: Makes the inner sequence for an element.
    /// - Returns: The merged elements of the inner sequences.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        Merge(source: asObservable(), maxConcurrent: .max, selector: selector)
    }
}
