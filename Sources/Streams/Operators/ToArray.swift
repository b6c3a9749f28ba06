extension ObservableType {
    /// Collects every element and sends them as one array when the source completes.
    ///
    ///     --1--2--3--|
    ///     toArray()
    ///     -----------(A|)
    ///     where A = [1, 2, 3]
    ///
    /// An empty source gives an empty array; an error is passed on and the collected elements
    /// are dropped.
    ///
    /// - Returns: A ``Single`` of the array of every element.
    public func toArray() -> Single<[Element]> {
        Single(raw: ToArray(source: asObservable()))
    }
}

final class ToArray<Element>: Producer<[Element]>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) { self.source = source }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == [Element] {
        let sink = ToArraySink<Element, Observer>(observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class ToArraySink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == [Element] {
    private var elements: [Element] = []

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            elements.append(element)
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.next(elements))
            forwardOn(.completed)
            dispose()
        }
    }
}
