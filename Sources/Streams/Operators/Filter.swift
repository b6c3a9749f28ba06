extension ObservableType {
    /// Keeps only the elements that satisfy `predicate`.
    ///
    ///     --1--2--3--4--|
    ///     filter { $0.isMultiple(of: 2) }
    ///     -----2-----4--|
    ///
    /// A thrown error ends the sequence with that error.
    ///
    /// - Parameter predicate: Decides whether an element passes.
    /// - Returns: The filtered sequence.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        Filter(source: asObservable(), predicate: predicate)
    }
}

final class Filter<Element>: Producer<Element>, @unchecked Sendable {
    typealias Predicate = (Element) throws -> Bool

    private let source: Observable<Element>
    private let predicate: Predicate

    init(source: Observable<Element>, predicate: @escaping Predicate) {
        self.source = source
        self.predicate = predicate
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = FilterSink(predicate: predicate, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class FilterSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    typealias Predicate = (Element) throws -> Bool
    private let predicate: Predicate

    init(predicate: @escaping Predicate, observer: Observer, handle: SinkDisposer?) {
        self.predicate = predicate
        super.init(observer: observer, handle: handle)
    }

    // Inlined into the protocol witness, which is how every upstream calls it.
    @inline(__always)
    func onNext(_ element: Element) {
        let passes: Bool
        do {
            passes = try predicate(element)
        } catch {
            forwardErrorAndDispose(error)
            return
        }
        if passes { forwardNext(element) }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}
