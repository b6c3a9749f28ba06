extension ObservableType {
    /// Passes on the only element of the source, and fails if there is not exactly one.
    ///
    ///     --1--|
    ///     single()
    ///     --1--|
    ///
    /// As in RxSwift, the element is sent as soon as it arrives; a second element fails the
    /// sequence with ``StreamsError/moreThanOneElement``, and completion without an element
    /// fails it with ``StreamsError/noElements``.
    ///
    /// - Returns: The source's single element, then completion.
    public func single() -> Observable<Element> {
        SingleElement(source: asObservable(), predicate: nil)
    }

    /// Passes on the only element that satisfies `predicate`, and fails if there is not
    /// exactly one.
    ///
    ///     --1--2--3--|
    ///     single { $0 == 2 }
    ///     -----2-----|
    ///
    /// Errors as ``single()``, counting only the elements that satisfy `predicate`; a thrown
    /// error ends the sequence with that error.
    ///
    /// - Parameter predicate: Selects the elements that count.
    /// - Returns: The single matching element, then completion.
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SingleElement(source: asObservable(), predicate: predicate)
    }
}

final class SingleElement<Element>: Producer<Element>, @unchecked Sendable {
    typealias Predicate = (Element) throws -> Bool

    private let source: Observable<Element>
    private let predicate: Predicate?

    init(source: Observable<Element>, predicate: Predicate?) {
        self.source = source
        self.predicate = predicate
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = SingleElementSink(predicate: predicate, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class SingleElementSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let predicate: ((Element) throws -> Bool)?
    private var seenElement = false

    init(predicate: ((Element) throws -> Bool)?, observer: Observer, handle: SinkDisposer?) {
        self.predicate = predicate
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                if let predicate, try !predicate(element) { return }
            } catch {
                forwardOn(.error(error))
                dispose()
                return
            }
            if seenElement {
                forwardOn(.error(StreamsError.moreThanOneElement))
                dispose()
                return
            }
            seenElement = true
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(seenElement ? .completed : .error(StreamsError.noElements))
            dispose()
        }
    }
}
