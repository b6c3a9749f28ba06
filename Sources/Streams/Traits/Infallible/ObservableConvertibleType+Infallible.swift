extension ObservableConvertibleType {
    /// The sequence as an ``Infallible`` that sends `element` and completes instead of failing.
    ///
    ///     --1--2--#   asInfallible(onErrorJustReturn: 0)   --1--2--(0|)
    ///
    /// - Parameter element: The element sent in place of an error.
    /// - Returns: The infallible sequence.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// The sequence as an ``Infallible`` that continues with `infallible` instead of failing.
    ///
    ///     --1--#   asInfallible(onErrorFallbackTo: .of(8, 9))   --1--(89|)
    ///
    /// - Parameter infallible: The sequence to continue with after an error.
    /// - Returns: The infallible sequence.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// The sequence as an ``Infallible`` that continues with the sequence `onErrorRecover` makes
    /// from the error.
    ///
    ///     --1--#   asInfallible(onErrorRecover: { _ in .just(9) })   --1--(9|)
    ///
    /// - Parameter onErrorRecover: Makes the sequence to continue with.
    /// - Returns: The infallible sequence.
    public func asInfallible(onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { onErrorRecover($0).asObservable() })
    }
}

extension ObservableType {
    /// Maps each element to an infallible sequence and sends the elements of the latest one
    /// only; the result is itself an ``Infallible`` (RxSwift 6 has this overload, so a chain that
    /// switches to infallible sequences stays infallible).
    ///
    ///     source: --a-------b-----|
    ///     a:        1--2--3--4|
    ///     b:                5---6|
    ///     flatMapLatest { $0 }
    ///             --1--2--3-5---6-|
    ///
    /// The source itself should not fail, and `selector` should not throw: either fails the
    /// result, which its `subscribe` reports as a programming error.
    ///
    /// - Parameter selector: Makes the inner sequence for an element.
    /// - Returns: The elements of the latest inner sequence.
    public func flatMapLatest<Source: InfallibleType>(_ selector: @escaping (Element) throws -> Source) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapLatest { try selector($0).asObservable() })
    }
}

extension SharedSequence {
    /// The driver or signal as an ``Infallible``, with the same elements, on the same scheduler.
    ///
    /// - Returns: The infallible sequence.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}

extension PublishRelay {
    /// The relay as an ``Infallible`` of its later elements.
    ///
    /// - Returns: The infallible sequence; it never completes.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}

extension BehaviorRelay {
    /// The relay as an ``Infallible``: its current value, then every later one.
    ///
    /// - Returns: The infallible sequence; it never completes.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}

extension InfallibleType {
    /// The sequence as a ``Driver``: delivered on the driver scheduler and shared, with the
    /// latest element replayed to a new observer.
    ///
    /// - Returns: The driver.
    public func asDriver() -> Driver<Element> {
        Driver(TraitOperators.observe(asObservable(), on: DriverSharingStrategy.scheduler))
    }

    /// The elements of the sequence as an asynchronous stream, which never throws.
    ///
    ///     for await name in names.values { print(name) }
    ///
    /// Elements are buffered without bound; cancelling the consuming task, or leaving the loop,
    /// disposes the subscription.
    public var values: AsyncStream<Element> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let subscription = asObservable().subscribe(AnyObserver { event in
                switch event {
                case .next(let element): continuation.yield(assumeSending(element))
                case .error, .completed: continuation.finish()
                }
            })
            let box = UncheckedSendable(subscription)
            continuation.onTermination = { _ in box.value.dispose() }
        }
    }
}
