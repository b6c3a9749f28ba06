extension ObservableType {
    /// Sends the first element (or `nil` if the source completes empty), then completes.
    ///
    ///     --1--2--|        ------|
    ///     first()          first()
    ///     --(1|)           ------(nil|)
    ///
    /// RxSwift 6 returns a `Single<Element?>`; this returns the same events as an
    /// `Observable<Element?>`.
    ///
    /// - Returns: A sequence of one optional element, then completion.
    public func first() -> Observable<Element?> {
        First(source: asObservable())
    }
}

final class First<Element>: Producer<Element?>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) { self.source = source }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element? {
        let sink = FirstSink<Element, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}

final class FirstSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Element? {
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            forwardOn(.next(element))
            forwardOn(.completed)
            dispose()
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.next(nil))
            forwardOn(.completed)
            dispose()
        }
    }
}
