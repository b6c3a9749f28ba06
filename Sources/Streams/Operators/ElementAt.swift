extension ObservableType {
    /// Sends only the element at position `index` (counting from zero), then completes.
    ///
    ///     --1--2--3--|
    ///     element(at: 1)
    ///     -----(2|)
    ///
    /// If the source completes first, the result fails with ``StreamsError/argumentOutOfRange``.
    ///
    /// - Precondition: `index` is not negative.
    /// - Parameter index: The position of the element to send.
    /// - Returns: A sequence of that one element, then completion.
    public func element(at index: Int) -> Observable<Element> {
        precondition(index >= 0, "index can't be negative")
        return ElementAt(source: asObservable(), index: index)
    }
}

final class ElementAt<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let index: Int

    init(source: Observable<Element>, index: Int) {
        self.source = source
        self.index = index
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ElementAtSink(index: index, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class ElementAtSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private var remaining: Int

    init(index: Int, observer: Observer, handle: SinkDisposer?) {
        self.remaining = index
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if remaining == 0 {
                forwardOn(event)
                forwardOn(.completed)
                dispose()
            } else {
                remaining -= 1
            }
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(.error(StreamsError.argumentOutOfRange))
            dispose()
        }
    }
}
