/// A ``SharedSequence`` for UI events: it never fails, delivers on the main scheduler (see
/// ``SharingScheduler``) and shares one subscription without replay, so a new observer only
/// sees later elements.
///
///     let taps: Signal<Void> = button.rx.tap.asSignal()
///     taps.emit(onNext: { viewModel.order() })
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

/// The sharing strategy of ``Signal``: delivers on ``SharingScheduler/make``'s scheduler and
/// shares with `share(scope: .whileConnected)` (no replay).
public struct SignalSharingStrategy: SharingStrategyProtocol {
    /// The scheduler signals deliver on: ``MainScheduler/instance`` unless mocked.
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    /// Shares `source` without replay while connected.
    ///
    /// - Parameter source: The sequence to share.
    /// - Returns: The shared sequence.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

extension ObservableConvertibleType {
    /// The sequence as a ``Signal`` that sends `onErrorJustReturn` and completes instead of
    /// failing.
    ///
    ///     --1--#   asSignal(onErrorJustReturn: 0)   --1--(0|)
    ///
    /// - Parameter onErrorJustReturn: The element sent in place of an error.
    /// - Returns: The signal.
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        let source = TraitOperators.observe(asObservable(), on: SignalSharingStrategy.scheduler)
        return Signal(TraitOperators.catchError(source) { _ in .just(onErrorJustReturn) })
    }

    /// The sequence as a ``Signal`` that continues with `onErrorSignalWith` instead of failing.
    ///
    ///     --1--#   asSignal(onErrorSignalWith: .just(9))   --1--(9|)
    ///
    /// - Parameter onErrorSignalWith: The signal to continue with after an error.
    /// - Returns: The signal.
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        let source = TraitOperators.observe(asObservable(), on: SignalSharingStrategy.scheduler)
        return Signal(TraitOperators.catchError(source) { _ in onErrorSignalWith.asObservable() })
    }

    /// The sequence as a ``Signal`` that continues with the signal `onErrorRecover` makes from
    /// an error.
    ///
    /// - Parameter onErrorRecover: Makes the signal to continue with.
    /// - Returns: The signal.
    public func asSignal(onErrorRecover: @escaping (Swift.Error) -> Signal<Element>) -> Signal<Element> {
        let source = TraitOperators.observe(asObservable(), on: SignalSharingStrategy.scheduler)
        return Signal(TraitOperators.catchError(source) { onErrorRecover($0).asObservable() })
    }
}

extension PublishRelay {
    /// The relay as a ``Signal`` of its later elements, on the main scheduler.
    ///
    /// - Returns: The signal.
    public func asSignal() -> Signal<Element> {
        Signal(TraitOperators.observe(asObservable(), on: SignalSharingStrategy.scheduler))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Subscribes and ignores the elements: the signal's side effects (`do`, sharing) run.
    ///
    /// - Returns: The subscription.
    public func emit() -> Disposable {
        asObservable().subscribe()
    }

    /// Returns `self`.
    public func asSignal() -> Signal<Element> { asSharedSequence() }

    /// Sends every element to each of `observers`.
    ///
    /// - Parameter observers: The observers.
    /// - Returns: The subscription.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe(AnyObserver { event in
            for observer in observers { observer.on(event) }
        })
    }

    /// Sends every element, as an optional, to each of `observers`.
    ///
    /// - Parameter observers: The observers of optional elements.
    /// - Returns: The subscription.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().map { $0 as Element? }.subscribe(AnyObserver { event in
            for observer in observers { observer.on(event) }
        })
    }

    /// Sends every element to each of `relays`.
    ///
    /// - Parameter relays: The relays to send to.
    /// - Returns: The subscription.
    public func emit(to relays: PublishRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sets every element as the value of each of `relays`.
    ///
    /// - Parameter relays: The relays to update.
    /// - Returns: The subscription.
    public func emit(to relays: BehaviorRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element, as an optional, to each of `relays`.
    ///
    ///     --1--2--   emit(to: relay)   relay sends Optional(1), Optional(2)
    ///
    /// - Parameter relays: The relays to send to.
    /// - Returns: The subscription.
    public func emit(to relays: PublishRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sets every element, as an optional, as the value of each of `relays`.
    ///
    ///     --1--2--   emit(to: relay)   relay.value: Optional(1), then Optional(2)
    ///
    /// - Parameter relays: The relays to update.
    /// - Returns: The subscription.
    public func emit(to relays: BehaviorRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element to each of `relays`, which keep it for later subscribers.
    ///
    ///     --1--2--   emit(to: relay)   relay replays 1, 2
    ///
    /// - Parameter relays: The relays to send to.
    /// - Returns: The subscription.
    public func emit(to relays: ReplayRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element, as an optional, to each of `relays`.
    ///
    ///     --1--2--   emit(to: relay)   relay replays Optional(1), Optional(2)
    ///
    /// - Parameter relays: The relays to send to.
    /// - Returns: The subscription.
    public func emit(to relays: ReplayRelay<Element?>...) -> Disposable {
        asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Subscribes closures for elements, completion and disposal.
    ///
    /// - Parameters:
    ///   - onNext: Called for each element.
    ///   - onCompleted: Called when the signal completes.
    ///   - onDisposed: Called once when the subscription ends.
    /// - Returns: The subscription.
    public func emit(
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
    public func emit<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }
}
