// The names RxSwift 6 renamed and still ships, deprecated, so that code written for RxSwift 5
// compiles here too, with a warning that names the RxSwift 6 spelling. Each one only forwards.

extension ObservableType {
    /// Deprecated: RxSwift 5's name for ``catch(_:)``.
    ///
    /// - Parameter handler: Makes the replacement sequence from the source's error.
    /// - Returns: The source's elements, then the replacement's.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        `catch`(handler)
    }

    /// Deprecated: RxSwift 5's name for ``catchAndReturn(_:)``.
    ///
    /// - Parameter element: The last element sent when the source fails.
    /// - Returns: The source's elements, then `element` if it fails.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }

    /// Deprecated: RxSwift 5's name for ``catch(sequence:)``.
    ///
    /// - Parameter sequence: The sequences to try, in order.
    /// - Returns: The elements of each sequence tried.
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        `catch`(sequence: sequence)
    }

    /// Deprecated: RxSwift 5's name for ``element(at:)``.
    ///
    /// - Parameter index: The zero-based index of the element.
    /// - Returns: The element at `index`.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }

    /// Deprecated: RxSwift 5's name for ``observe(on:)``.
    ///
    /// - Parameter scheduler: Where the observer is called.
    /// - Returns: The same sequence, observed on `scheduler`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }

    /// Deprecated: RxSwift 5's name for ``subscribe(on:)``.
    ///
    /// - Parameter scheduler: Where the subscription is made.
    /// - Returns: The same sequence, subscribed on `scheduler`.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }

    /// Deprecated: RxSwift 5's name for ``retry(when:)-((Observable<Failure>)->TriggerObservable)``, for failures of type `Failure`.
    ///
    /// - Parameter notificationHandler: Turns the failures into the trigger sequence.
    /// - Returns: The source's elements across the attempts.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Failure: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// Deprecated: RxSwift 5's name for ``retry(when:)-((Observable<Error>)->TriggerObservable)``.
    ///
    /// - Parameter notificationHandler: Turns the failures into the trigger sequence.
    /// - Returns: The source's elements across the attempts.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// Deprecated: RxSwift 5's name for ``skip(until:)``.
    ///
    /// - Parameter other: Its first element starts the elements' flow.
    /// - Returns: The elements after `other`'s first element.
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        skip(until: other)
    }

    /// Deprecated: RxSwift 5's name for ``skip(while:)``.
    ///
    /// - Parameter predicate: Elements are dropped while it holds.
    /// - Returns: The elements from the first one that fails `predicate`.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }

    /// Deprecated: RxSwift 5's name for ``take(for:scheduler:)``.
    ///
    /// - Parameters:
    ///   - duration: How long elements are taken.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The elements sent during `duration`.
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }

    /// Deprecated: RxSwift 5's name for `take(until:)` (the sequence form).
    ///
    /// - Parameter other: Its first element ends the result.
    /// - Returns: The elements before `other`'s first element.
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        take(until: other)
    }

    /// Deprecated: RxSwift 5's name for ``take(until:behavior:)``.
    ///
    /// - Parameters:
    ///   - behavior: Whether the element that satisfies `predicate` is sent.
    ///   - predicate: Ends the result when it holds.
    /// - Returns: The elements up to the first that satisfies `predicate`.
    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(_ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(until: predicate, behavior: behavior)
    }

    /// Deprecated: RxSwift 5's name for ``take(while:behavior:)``.
    ///
    /// - Parameter predicate: Elements are taken while it holds.
    /// - Returns: The elements before the first that fails `predicate`.
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }
}

extension PrimitiveSequence {
    /// Deprecated: RxSwift 5's name for ``observe(on:)``.
    ///
    /// - Parameter scheduler: Where the observer is called.
    /// - Returns: The same sequence, observed on `scheduler`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        observe(on: scheduler)
    }

    /// Deprecated: RxSwift 5's name for ``subscribe(on:)``.
    ///
    /// - Parameter scheduler: Where the subscription is made.
    /// - Returns: The same sequence, subscribed on `scheduler`.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        subscribe(on: scheduler)
    }

    /// Deprecated: RxSwift 5's name for ``catch(_:)``.
    ///
    /// - Parameter handler: Makes the sequence to continue with.
    /// - Returns: The sequence with errors handled.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        `catch`(handler)
    }

    /// Deprecated: RxSwift 5's name for ``retry(when:)-((Observable<Failure>)->TriggerObservable)``, for failures of type `Failure`.
    ///
    /// - Parameter notificationHandler: Turns the failures into the trigger sequence.
    /// - Returns: The sequence that retries.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Failure: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }

    /// Deprecated: RxSwift 5's name for ``retry(when:)-((Observable<Error>)->TriggerObservable)``.
    ///
    /// - Parameter notificationHandler: Turns the failures into the trigger sequence.
    /// - Returns: The sequence that retries.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Deprecated: RxSwift 5's name for ``catchAndReturn(_:)->Single<Self.Element>``.
    ///
    /// - Parameter element: The element to succeed with instead of failing.
    /// - Returns: The single.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Single<Element> {
        catchAndReturn(element)
    }

    /// Deprecated: RxSwift 5's spelling of ``subscribe(onSuccess:onFailure:onDisposed:)``.
    ///
    /// - Parameters:
    ///   - onSuccess: Called with the element.
    ///   - onError: Called with the failure.
    ///   - onDisposed: Called when the subscription ends.
    /// - Returns: The subscription.
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: @escaping (Swift.Error) -> Void,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Deprecated: RxSwift 5's name for ``catchAndReturn(_:)->Maybe<Self.Element>``.
    ///
    /// - Parameter element: The element to succeed with instead of failing.
    /// - Returns: The maybe.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Maybe<Element> {
        catchAndReturn(element)
    }
}

extension ObservableType {
    /// Drops the elements sent during `duration` after the subscription (RxSwift 6's spelling;
    /// ``skip(for:scheduler:)`` is the same operator).
    ///
    ///     --1--2--3--4--|
    ///     skip(.seconds(7), scheduler: scheduler)
    ///     --------3--4--|
    ///
    /// - Parameters:
    ///   - duration: How long elements are dropped.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The elements sent after `duration`.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        skip(for: duration, scheduler: scheduler)
    }
}
