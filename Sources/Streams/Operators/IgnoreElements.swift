extension ObservableType {
    /// Drops every element and passes on only completion or the error.
    ///
    ///     --1--2--3--|
    ///     ignoreElements()
    ///     -----------|
    ///
    /// - Returns: A sequence with no elements that ends as the source ends.
    public func ignoreElements() -> Observable<Never> {
        IgnoreElements(source: asObservable())
    }
}

final class IgnoreElements<Element>: Producer<Never>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) { self.source = source }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Never {
        let sink = IgnoreElementsSink<Element, Observer>(observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class IgnoreElementsSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Never {
    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            return
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}
