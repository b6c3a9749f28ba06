import Locking
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
        Observable.create { observer in
            let serial = SerialDisposable()
            let firstSubscription = SingleAssignmentDisposable()
            serial.disposable = firstSubscription
            firstSubscription.setDisposable(first.subscribe(AnyObserver { event in
                switch event {
                case .next:
                    break
                case .error(let error):
                    observer.on(.error(error))
                case .completed:
                    serial.disposable = second.subscribe(observer)
                }
            }))
            return serial
        }
    }

    /// Waits for one element from every source, then sends `resultSelector` of them and
    /// completes. Completes empty as soon as a source completes without an element.
    static func zip<Result>(_ sources: [Observable<Any>], resultSelector: @escaping ([Any]) throws -> Result) -> Observable<Result> {
        Observable.create { observer in
            let state = TraitZipState(count: sources.count)
            func emit(_ values: [Any]) {
                do {
                    observer.onNext(try resultSelector(values))
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            if sources.isEmpty {
                emit([])
                return Disposables.create()
            }
            let group = CompositeDisposable()
            for (index, source) in sources.enumerated() {
                let subscription = SingleAssignmentDisposable()
                _ = group.insert(subscription)
                subscription.setDisposable(source.subscribe(AnyObserver { event in
                    switch event {
                    case .next(let value):
                        if let values = state.store(value, at: index) { emit(values) }
                    case .error(let error):
                        observer.onError(error)
                    case .completed:
                        if !state.hasValue(at: index) { observer.onCompleted() }
                    }
                }))
            }
            return group
        }
    }
}

/// The collected values of one `zip` subscription over traits.
final class TraitZipState: @unchecked Sendable {
    private let lock = Lock()
    private var values: [Any?]
    private var remaining: Int

    init(count: Int) {
        values = Array(repeating: nil, count: count)
        remaining = count
    }

    /// Stores `value`; returns all values once every source has sent one.
    func store(_ value: Any, at index: Int) -> [Any]? {
        lock.withLock {
            if values[index] == nil { remaining -= 1 }
            values[index] = value
            return remaining == 0 ? values.map { $0! } : nil
        }
    }

    func hasValue(at index: Int) -> Bool { lock.withLock { values[index] != nil } }
}

extension TraitOperators {
    /// Sends `element`, then the events of `source`.
    static func startWith<Element>(_ source: Observable<Element>, _ element: Element) -> Observable<Element> {
        source.startWith(element)
    }
}
