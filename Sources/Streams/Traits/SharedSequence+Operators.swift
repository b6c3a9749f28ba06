extension SharedSequenceConvertibleType {
    /// Transforms each element with `transform`.
    ///
    ///     -1-2-|   map { $0 * 2 }   -2-4-|
    ///
    /// - Parameter transform: Applied to each element; it must not fail.
    /// - Returns: The transformed shared sequence.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().map(transform))
    }

    /// Transforms each element into an optional and keeps the non-`nil` results.
    ///
    ///     -1-2-3-|   compactMap { $0 == 2 ? nil : $0 }   -1---3-|
    ///
    /// - Parameter transform: Applied to each element.
    /// - Returns: The shared sequence of non-`nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().map(transform).filter { $0 != nil }.map { $0! })
    }

    /// Keeps the elements for which `predicate` holds.
    ///
    ///     -1-2-3-|   filter { $0 != 2 }   -1---3-|
    ///
    /// - Parameter predicate: Decides whether an element is kept.
    /// - Returns: The filtered shared sequence.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().filter(predicate))
    }

    /// Drops elements equal to the previous one, compared with `comparer`.
    ///
    ///     -1-1-2-2-1-|   distinctUntilChanged(==)   -1---2---1-|
    ///
    /// - Parameter comparer: `true` when two elements count as equal.
    /// - Returns: The shared sequence without consecutive duplicates.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(comparer))
    }

    /// Drops elements whose key equals the previous element's key.
    ///
    /// - Parameter keySelector: The key compared between consecutive elements.
    /// - Returns: The shared sequence without consecutive duplicates.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector))
    }

    /// Sends `element` first, then the elements of this sequence.
    ///
    ///     -1-2-|   startWith(0)   01-2-|
    ///
    /// - Parameter element: The first element.
    /// - Returns: The shared sequence.
    public func startWith(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(TraitOperators.startWith(asObservable(), element))
    }

    /// Calls side-effect closures for the events and the life of each subscription.
    ///
    /// - Parameters:
    ///   - onNext: Before each element is sent.
    ///   - afterNext: After each element is sent.
    ///   - onCompleted: Before completion is sent.
    ///   - afterCompleted: After completion is sent.
    ///   - onSubscribe: Before subscribing.
    ///   - onSubscribed: After subscribing.
    ///   - onDispose: When the subscription is disposed.
    /// - Returns: The same shared sequence with side effects.
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(TraitOperators.perform(
            on: asObservable(),
            onNext: onNext, afterNext: afterNext,
            onError: nil, afterError: nil,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }
}

extension SharedSequenceConvertibleType where Element: Equatable {
    /// Drops elements equal to the previous one.
    ///
    ///     -1-1-2-2-1-|   distinctUntilChanged()   -1---2---1-|
    ///
    /// - Returns: The shared sequence without consecutive duplicates.
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged())
    }
}
