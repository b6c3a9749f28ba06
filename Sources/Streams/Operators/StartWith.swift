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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = StartWithSink(observer: observer, cancel: cancel)
        for element in elements {
            // Stop early if the subscriber disposed while receiving a prefix element.
            if cancel.isDisposed { return (sink, Disposables.create()) }
            sink.forwardOn(.next(element))
        }
        if cancel.isDisposed { return (sink, Disposables.create()) }
        return (sink, source.subscribe(sink.forwarder()))
    }
}

private final class StartWithSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {}
