extension ObservableType {
    /// Collects every element and sends them as one array when the source completes.
    ///
    ///     --1--2--3--|
    ///     toArray()
    ///     -----------([1, 2, 3]|)
    ///
    /// RxSwift 6 returns a `Single<[Element]>`; this returns the same events as an
    /// `Observable` (one array, then completion, or the source's error).
    ///
    /// - Returns: A sequence of one array, then completion.
    public func toArray() -> Observable<[Element]> {
        ToArray(source: asObservable())
    }
}

final class ToArray<Element>: Producer<[Element]>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) { self.source = source }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == [Element] {
        let sink = ToArraySink<Element, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}

final class ToArraySink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == [Element] {
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
