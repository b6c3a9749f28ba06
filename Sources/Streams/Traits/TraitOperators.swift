/// The observable machinery behind the trait operators. Each function returns a plain
/// ``Observable`` that the trait types wrap; none of them is public API.
enum TraitOperators {
    /// Delivers `source`'s events on `scheduler`, one at a time and in order.
    static func observe<Element>(_ source: Observable<Element>, on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        source.observe(on: scheduler)
    }

    /// Subscribes to `source` from an action scheduled on `scheduler`.
    static func subscribe<Element>(_ source: Observable<Element>, on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        source.subscribe(on: scheduler)
    }

    /// On an error, continues with the sequence that `handler` makes.
    static func catchError<Element>(_ source: Observable<Element>, handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        source.catch(handler)
    }

    /// Resubscribes to `source` after each error, `maxAttempts` subscriptions in all (or forever).
    static func retry<Element>(_ source: Observable<Element>, maxAttempts: Int?) -> Observable<Element> {
        maxAttempts.map { source.retry($0) } ?? source.retry()
    }

    /// Calls side-effect closures around the events and the life of each subscription.
    static func perform<Element>(
        on source: Observable<Element>,
        onNext: ((Element) throws -> Void)?,
        afterNext: ((Element) throws -> Void)?,
        onError: ((Swift.Error) throws -> Void)?,
        afterError: ((Swift.Error) throws -> Void)?,
        onCompleted: (() throws -> Void)?,
        afterCompleted: (() throws -> Void)?,
        onSubscribe: (() -> Void)?,
        onSubscribed: (() -> Void)?,
        onDispose: (() -> Void)?
    ) -> Observable<Element> {
        source.do(
            onNext: onNext, afterNext: afterNext,
            onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        )
    }

    /// Runs `first` to completion, then continues with `second`; an error of `first` ends it.
    static func concat<Element>(_ first: Observable<Never>, _ second: Observable<Element>) -> Observable<Element> {
        first.map { (never: Never) -> Element in }.concat(second)
    }
}

extension TraitOperators {
    /// Sends `element`, then the events of `source`.
    static func startWith<Element>(_ source: Observable<Element>, _ element: Element) -> Observable<Element> {
        source.startWith(element)
    }
}
