extension InfallibleType {
    /// Sends every event to each of `observers`; the binding way of saying `subscribe`.
    ///
    ///     --1--2--|   bind(to: label.rx.text)   sets the text to 1, then 2
    ///
    /// - Parameter observers: Receive every element and the completion.
    /// - Returns: The subscription.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe { event in observers.forEach { $0.on(event.event) } }
    }

    /// Sends every event, its element wrapped in an optional, to each of `observers`.
    ///
    ///     --1--2--|   bind(to: optionalObserver)   sends Optional(1), then Optional(2)
    ///
    /// - Parameter observers: Receive every element as an optional, and the completion.
    /// - Returns: The subscription.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event.event) } }
    }

    /// Passes this sequence to `binder` and returns its result.
    ///
    /// - Parameter binder: A function that consumes the sequence.
    /// - Returns: What `binder` returns, usually a disposable.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Passes this sequence, then `curriedArgument`, to `binder` and returns its result.
    ///
    /// - Parameters:
    ///   - binder: A curried function that consumes the sequence, then the argument.
    ///   - curriedArgument: The second argument.
    /// - Returns: What `binder` returns, usually a disposable.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Calls `onNext` with every element.
    ///
    ///     --1--2--|   bind(onNext: { print($0) })   prints 1, 2
    ///
    /// - Parameter onNext: Called for each element.
    /// - Returns: The subscription.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext)
    }

    /// Sets every element as the value of each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay.value: 1, then 2
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sets every element, as an optional, as the value of each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay.value: Optional(1), then Optional(2)
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay sends 1, 2
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, as an optional, to each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay sends Optional(1), Optional(2)
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }
}

extension InfallibleType {
    /// Sends every element to each of `relays`, which keep it for later subscribers.
    ///
    ///     --1--2--|   bind(to: relay)   relay replays 1, 2
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, as an optional, to each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay replays Optional(1), Optional(2)
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }
}
