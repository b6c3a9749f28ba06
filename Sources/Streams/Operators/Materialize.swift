extension ObservableType {
    /// Turns every event of the source, terminal ones included, into an element.
    ///
    ///     --1--2--#
    ///     materialize()
    ///     --A--B--(C|)
    ///     where A = next(1), B = next(2), C = error(marble error)
    ///
    /// - Returns: A sequence of the source's events that always completes normally.
    public func materialize() -> Observable<Event<Element>> {
        Materialize(source: asObservable())
    }
}

extension ObservableType where Element: EventConvertible {
    /// Turns elements that stand for events back into those events; the inverse of
    /// ``ObservableType/materialize()``.
    ///
    ///     --1--2--e--|
    ///     dematerialize()
    ///     --1--2--#
    ///
    /// (`e` is an `.error` event.)
    ///
    /// - Returns: The sequence the events describe.
    public func dematerialize() -> Observable<Element.Element> {
        Dematerialize(source: asObservable())
    }
}

final class Materialize<Element>: Producer<Event<Element>>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) { self.source = source }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Event<Element> {
        let sink = MaterializeSink<Element, Observer>(observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class MaterializeSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Event<Element> {
    func on(_ event: Event<Element>) {
        forwardOn(.next(event))
        if event.isStopEvent {
            forwardOn(.completed)
            dispose()
        }
    }
}

final class Dematerialize<Convertible: EventConvertible>: Producer<Convertible.Element>, @unchecked Sendable {
    private let source: Observable<Convertible>

    init(source: Observable<Convertible>) { self.source = source }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Convertible.Element {
        let sink = DematerializeSink<Convertible, Observer>(observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class DematerializeSink<Convertible: EventConvertible, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Convertible.Element {
    func on(_ event: Event<Convertible>) {
        switch event {
        case .next(let convertible):
            let inner = convertible.event
            forwardOn(inner)
            if inner.isStopEvent { dispose() }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}
