extension ObservableType where Element: ObservableConvertibleType {
    /// Flattens a sequence of sequences by forwarding only the elements of the most recent
    /// inner sequence: each new inner sequence disposes the previous subscription.
    ///
    ///     source: --a-------b-----|
    ///     a:        1--2--3--4|
    ///     b:                5---6|
    ///     switchLatest()
    ///             --1--2--3-5---6-|
    ///
    /// Completes when the source and the latest inner sequence have completed; fails as soon
    /// as the source or the latest inner sequence fails.
    ///
    /// - Returns: The elements of the latest inner sequence.
    public func switchLatest() -> Observable<Element.Element> {
        Switch(source: asObservable()) { $0 }
    }
}
