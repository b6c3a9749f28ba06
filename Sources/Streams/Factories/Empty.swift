extension ObservableType {
    /// A sequence that completes at once with no element.
    ///
    ///     empty(): |
    public static func empty() -> Observable<Element> { EmptyProducer() }

    /// A sequence that never sends any event.
    ///
    ///     never(): ------
    public static func never() -> Observable<Element> { NeverProducer() }

    /// A sequence that fails at once with `error`.
    ///
    ///     error(e): x
    ///
    /// - Parameter error: The error sent.
    public static func error(_ error: Swift.Error) -> Observable<Element> { ErrorProducer(error: error) }
}

final class EmptyProducer<Element>: SinklessProducer<Element>, @unchecked Sendable {
    override var innerShortcut: InnerShortcut { .completion }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        observer.on(.completed)
        return Disposables.create()
    }
}

final class NeverProducer<Element>: SinklessProducer<Element>, @unchecked Sendable {
    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        Disposables.create()
    }
}

final class ErrorProducer<Element>: SinklessProducer<Element>, @unchecked Sendable {
    private let error: Swift.Error
    init(error: Swift.Error) { self.error = error }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        observer.on(.error(error))
        return Disposables.create()
    }
}
