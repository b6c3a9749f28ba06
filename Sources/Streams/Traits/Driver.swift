/// A ``SharedSequence`` for UI state: it never fails, delivers on the main scheduler (see
/// ``SharingScheduler``) and shares one subscription, replaying the latest element to each new
/// observer.
///
///     let count: Driver<Int> = store.count.asDriver(onErrorJustReturn: 0)
///     count.map { "\($0) pizzas" }.drive(titleLabel.rx.text)
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// The sharing strategy of ``Driver``: delivers on ``SharingScheduler/make``'s scheduler and
/// shares with `share(replay: 1, scope: .whileConnected)`.
public struct DriverSharingStrategy: SharingStrategyProtocol {
    /// The scheduler drivers deliver on: ``MainScheduler/instance`` unless mocked.
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    /// Shares `source` with a replay of one while connected.
    ///
    /// - Parameter source: The sequence to share.
    /// - Returns: The shared sequence.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

extension ObservableConvertibleType {
    /// The sequence as a ``Driver`` that sends `onErrorJustReturn` and completes instead of
    /// failing.
    ///
    ///     --1--2--#   asDriver(onErrorJustReturn: 0)   --1--2--(0|)
    ///
    /// - Parameter onErrorJustReturn: The element sent in place of an error.
    /// - Returns: The driver.
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        let source = TraitOperators.observe(asObservable(), on: DriverSharingStrategy.scheduler)
        return Driver(TraitOperators.catchError(source) { _ in .just(onErrorJustReturn) })
    }

    /// The sequence as a ``Driver`` that continues with `onErrorDriveWith` instead of failing.
    ///
    ///     --1--#   asDriver(onErrorDriveWith: .just(9))   --1--(9|)
    ///
    /// - Parameter onErrorDriveWith: The driver to continue with after an error.
    /// - Returns: The driver.
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        let source = TraitOperators.observe(asObservable(), on: DriverSharingStrategy.scheduler)
        return Driver(TraitOperators.catchError(source) { _ in onErrorDriveWith.asObservable() })
    }

    /// The sequence as a ``Driver`` that continues with the driver `onErrorRecover` makes from
    /// an error.
    ///
    ///     --1--#   asDriver(onErrorRecover: { _ in .just(9) })   --1--(9|)
    ///
    /// - Parameter onErrorRecover: Makes the driver to continue with.
    /// - Returns: The driver.
    public func asDriver(onErrorRecover: @escaping (Swift.Error) -> Driver<Element>) -> Driver<Element> {
        let source = TraitOperators.observe(asObservable(), on: DriverSharingStrategy.scheduler)
        return Driver(TraitOperators.catchError(source) { onErrorRecover($0).asObservable() })
    }
}

extension BehaviorRelay {
    /// The relay as a ``Driver``: its current value, then every later one, on the main
    /// scheduler.
    ///
    /// - Returns: The driver.
    public func asDriver() -> Driver<Element> {
        Driver(TraitOperators.observe(asObservable(), on: DriverSharingStrategy.scheduler))
    }
}

extension Variable {
    /// The variable as a ``Driver``: its current value, then every later one, on the main
    /// scheduler.
    ///
    /// - Returns: The driver.
    public func asDriver() -> Driver<Element> {
        Driver(TraitOperators.observe(asObservable(), on: DriverSharingStrategy.scheduler))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Subscribes and ignores the elements: the driver's side effects (`do`, sharing) run.
    ///
    /// - Returns: The subscription.
    public func drive() -> Disposable {
        asObservable().subscribe()
    }

    /// Returns `self`.
    public func asDriver() -> Driver<Element> { asSharedSequence() }

    /// The driver as a ``Signal``: the same elements, without replay to new observers.
    ///
    /// - Returns: The signal.
    public func asSignal() -> Signal<Element> {
        Signal(asObservable())
    }

    /// Sends every element to each of `observers`.
    ///
    /// - Parameter observers: The observers, often UI bindings.
    /// - Returns: The subscription.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe(AnyObserver { event in
            for observer in observers { observer.on(event) }
        })
    }

    /// Sends every element, as an optional, to each of `observers`.
    ///
    /// - Parameter observers: The observers of optional elements.
    /// - Returns: The subscription.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().map { $0 as Element? }.subscribe(AnyObserver { event in
            for observer in observers { observer.on(event) }
        })
    }

    /// Sets every element as the value of each of `relays`.
    ///
    /// - Parameter relays: The relays to update.
    /// - Returns: The subscription.
    public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sets every element, as an optional, as the value of each of `relays`.
    ///
    /// - Parameter relays: The relays to update.
    /// - Returns: The subscription.
    public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element to each of `relays`.
    ///
    /// - Parameter relays: The relays to send to.
    /// - Returns: The subscription.
    public func drive(_ relays: PublishRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element to each of `relays`, which keep it for later subscribers.
    ///
    ///     --1--2--   drive(relay)   relay replays 1, 2
    ///
    /// - Parameter relays: The relays to send to.
    /// - Returns: The subscription.
    public func drive(_ relays: ReplayRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element, as an optional, to each of `relays`.
    ///
    ///     --1--2--   drive(relay)   relay replays Optional(1), Optional(2)
    ///
    /// - Parameter relays: The relays to send to.
    /// - Returns: The subscription.
    public func drive(_ relays: ReplayRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sets every element as the value of `variable` (the RxCocoa 4 binding).
    ///
    /// - Parameter variable: The variable to update.
    /// - Returns: The subscription.
    public func drive(_ variable: Variable<Element>) -> Disposable {
        asObservable().subscribe(onNext: { variable.value = $0 })
    }

    /// Subscribes closures for elements, completion and disposal.
    ///
    ///     Driver.of(1, 2).drive(onNext: { print($0) })   // prints 1, 2 on the main scheduler
    ///
    /// - Parameters:
    ///   - onNext: Called for each element.
    ///   - onCompleted: Called when the driver completes.
    ///   - onDisposed: Called once when the subscription ends.
    /// - Returns: The subscription.
    public func drive(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures that receive `object`, held weakly; events are ignored once it is gone.
    ///
    /// - Parameters:
    ///   - object: The object handed to each closure.
    ///   - onNext: Called with the object and each element.
    ///   - onCompleted: Called with the object on completion.
    ///   - onDisposed: Called with the object when the subscription ends.
    /// - Returns: The subscription.
    public func drive<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Hands the driver, as an observable, to a binding function and returns its result.
    ///
    /// - Parameter transformation: The binding function.
    /// - Returns: What `transformation` returns.
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        transformation(asObservable())
    }
}
