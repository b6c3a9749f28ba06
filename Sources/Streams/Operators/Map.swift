extension ObservableType {
    /// Transforms each element with `transform`.
    ///
    ///     --1--2--3--|
    ///     map { $0 * 2 }
    ///     --2--4--6--|
    ///
    /// A thrown error ends the sequence with that error.
    ///
    /// - Parameter transform: Applied to each element.
    /// - Returns: The transformed sequence.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Map(source: asObservable(), transform: transform)
    }
}

final class Map<SourceElement, Result>: Producer<Result>, @unchecked Sendable {
    typealias Transform = (SourceElement) throws -> Result

    private let source: Observable<SourceElement>
    private let transform: Transform

    init(source: Observable<SourceElement>, transform: @escaping Transform) {
        self.source = source
        self.transform = transform
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = MapSink(transform: transform, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

/// Maps each element and passes it on. The result type is a generic parameter of its own (the
/// downstream observer's element), so the unspecialised element path finds its metadata in the
/// sink's class metadata instead of asking the observer's conformance for it on every element.
private final class MapSink<SourceElement, Result, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Result {
    typealias Transform = (SourceElement) throws -> Result
    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, handle: SinkDisposer?) {
        self.transform = transform
        super.init(observer: observer, handle: handle)
    }

    // Inlined into the protocol witness, which is how every upstream calls it.
    @inline(__always)
    func onNext(_ element: SourceElement) {
        do {
            forwardNext(try transform(element))
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardErrorAndDispose(error)
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}
