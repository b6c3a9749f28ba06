extension ObservableType {
    /// Pairs each element with its position, counting from zero.
    ///
    ///     --5--6--7--|
    ///     enumerated()
    ///     --A--B--C--|
    ///     where A = (index: 0, element: 5), B = (index: 1, element: 6), C = (index: 2, element: 7)
    ///
    /// - Returns: The sequence of `(index, element)` pairs.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        Enumerated(source: asObservable())
    }
}

final class Enumerated<Element>: Producer<(index: Int, element: Element)>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) { self.source = source }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == (index: Int, element: Element) {
        let sink = EnumeratedSink<Element, Observer>(observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class EnumeratedSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == (index: Int, element: Element) {
    private var index = 0

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let (next, overflow) = index.addingReportingOverflow(1)
            if overflow {
                forwardOn(.error(StreamsError.overflow))
                dispose()
                return
            }
            let current = index
            index = next
            forwardOn(.next((index: current, element: element)))
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}
