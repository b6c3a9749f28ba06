extension ObservableType {
    /// Sends the first element (or `nil` if the source completes empty), then completes.
    ///
    ///     --1--2--|
    ///     first()
    ///     --(1|)
    ///
    ///     ------|
    ///     first()
    ///     ------(n|)
    ///
    /// (`n` is `nil`.)
    ///
    /// The source is disposed as soon as its first element arrives.
    ///
    /// - Returns: A ``Single`` of the first element, or of `nil` for an empty source.
    public func first() -> Single<Element?> {
        Single(raw: First(source: asObservable()))
    }
}

final class First<Element>: Producer<Element?>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) { self.source = source }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element? {
        let sink = FirstSink<Element, Observer>(observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class FirstSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Element? {
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
