extension ObservableType {
    /// Sends `elements` first, then the elements of this sequence.
    ///
    ///     ----1--2--|
    ///     startWith(7, 8)
    ///     (78)1--2--|
    ///
    /// The elements are sent synchronously on subscription, before this sequence is subscribed.
    ///
    /// - Parameter elements: The elements to send first, in order.
    /// - Returns: The sequence prefixed with `elements`.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWith(source: asObservable(), elements: elements)
    }
}

final class StartWith<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = StartWithSink(observer: observer, handle: handle)
        for element in elements {
            // Stop early if the subscriber disposed while receiving a prefix element.
            if sink.isDisposed || handle?.isDisposed == true { return sink }
            sink.forwardOn(.next(element))
        }
        if sink.isDisposed || handle?.isDisposed == true { return sink }
        sink.setUpstream(source.subscribe(sink.forwarder()))
        return sink
    }
}

private final class StartWithSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {}
