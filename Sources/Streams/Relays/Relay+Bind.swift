// RxRelay's `bind(to:)` from any observable sequence to relays, and RxCocoa 4's to `Variable`s,
// here so that a view model that imports only Streams can bind them. A relay or a variable
// cannot end, so the source's completion is not passed on, and a source that fails is a
// programming error: it is reported to `Hooks.programmingErrorHandler` (which stops a debug
// build, as RxRelay's `rxFatalErrorInDebug` does) and the binding ends.

extension ObservableType {
    /// Sends every element to each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay sends 1, 2 (and does not complete)
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bindElements(kind: "publish relay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element, as an optional, to each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay sends Optional(1), Optional(2)
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bindElements(kind: "publish relay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sets every element as the value of each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay.value: 1, then 2
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bindElements(kind: "behavior relay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sets every element, as an optional, as the value of each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay.value: Optional(1), then Optional(2)
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bindElements(kind: "behavior relay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element to each of `relays`, which keep it for later subscribers.
    ///
    ///     --1--2--|   bind(to: relay)   relay replays 1, 2
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bindElements(kind: "replay relay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element, as an optional, to each of `relays`.
    ///
    ///     --1--2--|   bind(to: relay)   relay replays Optional(1), Optional(2)
    ///
    /// - Parameter relays: Accept every element.
    /// - Returns: The subscription.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bindElements(kind: "replay relay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sets every element as the value of each of `variables`.
    ///
    ///     --1--2--|   bind(to: variable)   variable.value: 1, then 2 (and it does not complete)
    ///
    /// - Parameter variables: Take every element as their value.
    /// - Returns: The subscription.
    public func bind(to variables: Variable<Element>...) -> Disposable {
        bindElements(kind: "variable") { element in variables.forEach { $0.value = element } }
    }

    /// Sets every element, as an optional, as the value of each of `variables`.
    ///
    ///     --1--2--|   bind(to: variable)   variable.value: Optional(1), then Optional(2)
    ///
    /// - Parameter variables: Take every element as their value.
    /// - Returns: The subscription.
    public func bind(to variables: Variable<Element?>...) -> Disposable {
        bindElements(kind: "variable") { element in variables.forEach { $0.value = element } }
    }

    /// Subscribes `accept` to the elements; completion ends the binding quietly, an error is
    /// reported as a programming error.
    private func bindElements(kind: String, _ accept: @escaping (Element) -> Void) -> Disposable {
        subscribe { event in
            switch event {
            case .next(let element): accept(element)
            case .error(let error): Hooks.reportProgrammingError("Binding error to \(kind): \(error)")
            case .completed: break
            }
        }
    }
}
