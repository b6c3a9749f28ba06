extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Transforms the element, if any, with `transform`.
    ///
    ///     --(1|)   map { $0 * 2 }   --(2|)
    ///
    /// - Parameter transform: Applied to the element; a thrown error becomes the failure.
    /// - Returns: The transformed maybe.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.asObservable().map(transform))
    }

    /// Transforms the element into an optional; `nil` becomes empty completion.
    ///
    /// - Parameter transform: Applied to the element.
    /// - Returns: A maybe with the non-`nil` result.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        let mapped = primitiveSequence.asObservable().map(transform)
        return Maybe(raw: mapped.filter { $0 != nil }.map { $0! })
    }

    /// Continues with the maybe that `selector` makes from the element, if any.
    ///
    ///     --(1|)   flatMap { .just($0 + 1) }   --(2|)
    ///     --|      flatMap { .just($0 + 1) }   --|
    ///
    /// - Parameter selector: Makes the next maybe; a thrown error becomes the failure.
    /// - Returns: The maybe made by `selector`, or empty.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: Merge(source: primitiveSequence.asObservable(), maxConcurrent: 1) { try selector($0).asObservable() })
    }

    /// Keeps the element only if `predicate` holds; otherwise completes empty.
    ///
    ///     --(1|)   filter { $0 > 5 }   --|
    ///
    /// - Parameter predicate: Decides whether the element is kept.
    /// - Returns: The filtered maybe.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.asObservable().filter(predicate))
    }

    /// Succeeds with `element` instead of failing.
    ///
    ///     --#   catchAndReturn(0)   --(0|)
    ///
    /// - Parameter element: The element sent in place of an error.
    /// - Returns: A maybe that never fails.
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        Maybe(raw: TraitOperators.catchError(primitiveSequence.asObservable()) { _ in .just(element) })
    }

    /// Calls side-effect closures for the outcome and the life of each subscription.
    ///
    /// A closure that throws turns the outcome into that error.
    ///
    /// - Parameters:
    ///   - onNext: Before the element is sent.
    ///   - afterNext: After the element is sent.
    ///   - onError: Before the failure is sent.
    ///   - afterError: After the failure is sent.
    ///   - onCompleted: Before completion is sent.
    ///   - afterCompleted: After completion is sent.
    ///   - onSubscribe: Before subscribing.
    ///   - onSubscribed: After subscribing.
    ///   - onDispose: When the subscription is disposed.
    /// - Returns: The same maybe with side effects.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Maybe<Element> {
        Maybe(raw: TraitOperators.perform(
            on: primitiveSequence.asObservable(),
            onNext: onNext, afterNext: afterNext,
            onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Calls side-effect closures for the outcome and the life of each subscription.
    ///
    /// A closure that throws turns the outcome into that error.
    ///
    /// - Parameters:
    ///   - onError: Before the failure is sent.
    ///   - afterError: After the failure is sent.
    ///   - onCompleted: Before completion is sent.
    ///   - afterCompleted: After completion is sent.
    ///   - onSubscribe: Before subscribing.
    ///   - onSubscribed: After subscribing.
    ///   - onDispose: When the subscription is disposed.
    /// - Returns: The same completable with side effects.
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        Completable(raw: TraitOperators.perform(
            on: primitiveSequence.asObservable(),
            onNext: nil, afterNext: nil,
            onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }
}
