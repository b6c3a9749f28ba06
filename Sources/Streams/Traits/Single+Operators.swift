extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Transforms the element with `transform`.
    ///
    ///     --(1|)   map { $0 * 2 }   --(2|)
    ///
    /// - Parameter transform: Applied to the element; a thrown error becomes the failure.
    /// - Returns: The transformed single.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: primitiveSequence.asObservable().map(transform))
    }

    /// Transforms the element into an optional; `nil` becomes empty completion.
    ///
    ///     --(1|)   compactMap { $0 > 5 ? $0 : nil }   --|
    ///
    /// - Parameter transform: Applied to the element.
    /// - Returns: A maybe with the non-`nil` result.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        let mapped = primitiveSequence.asObservable().map(transform)
        return Maybe(raw: mapped.filter { $0 != nil }.map { $0! })
    }

    /// Continues with the single that `selector` makes from the element.
    ///
    ///     --(1|)   flatMap { .just($0 + 1) }   --(2|)
    ///
    /// - Parameter selector: Makes the next single; a thrown error becomes the failure.
    /// - Returns: The single made by `selector`.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: Merge(source: primitiveSequence.asObservable(), maxConcurrent: 1) { try selector($0).asObservable() })
    }

    /// Continues with the maybe that `selector` makes from the element.
    ///
    ///     --(1|)   flatMapMaybe { _ in .empty() }   --|
    ///
    /// - Parameter selector: Makes the maybe; a thrown error becomes the failure.
    /// - Returns: The maybe made by `selector`.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: Merge(source: primitiveSequence.asObservable(), maxConcurrent: 1) { try selector($0).asObservable() })
    }

    /// Continues with the completable that `selector` makes from the element.
    ///
    ///     --(1|)   flatMapCompletable { _ in .empty() }   --|
    ///
    /// - Parameter selector: Makes the completable; a thrown error becomes the failure.
    /// - Returns: The completable made by `selector`.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: Merge(source: primitiveSequence.asObservable(), maxConcurrent: 1) { try selector($0).asObservable() })
    }

    /// Keeps the element only if `predicate` holds; otherwise completes empty.
    ///
    ///     --(1|)   filter { $0 > 5 }   --|
    ///
    /// - Parameter predicate: Decides whether the element is kept.
    /// - Returns: A maybe.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.asObservable().filter(predicate))
    }

    /// Succeeds with `element` instead of failing.
    ///
    ///     --#   catchAndReturn(0)   --(0|)
    ///
    /// - Parameter element: The element sent in place of an error.
    /// - Returns: A single that never fails.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: TraitOperators.catchError(primitiveSequence.asObservable()) { _ in .just(element) })
    }

    /// Calls side-effect closures for the outcome and the life of each subscription.
    ///
    ///     --(1|)   do(onSuccess: { print($0) })   --(1|)
    ///
    //// (It prints 1 before the success is passed on.)
    ///
    /// A closure that throws turns the outcome into that error.
    ///
    /// - Parameters:
    ///   - onSuccess: Before the success is sent.
    ///   - afterSuccess: After the success is sent.
    ///   - onError: Before the failure is sent.
    ///   - afterError: After the failure is sent.
    ///   - onSubscribe: Before subscribing.
    ///   - onSubscribed: After subscribing.
    ///   - onDispose: When the subscription is disposed (after the outcome, too).
    /// - Returns: The same single with side effects.
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        Single(raw: TraitOperators.perform(
            on: primitiveSequence.asObservable(),
            onNext: onSuccess, afterNext: afterSuccess,
            onError: onError, afterError: afterError,
            onCompleted: nil, afterCompleted: nil,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }
}

extension PrimitiveSequence {
    /// The source with its elements boxed as `Any`, for the shared `zip` engine.
    var erased: Observable<Any> { source.map { $0 as Any } }
}
