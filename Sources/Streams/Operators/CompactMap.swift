extension ObservableType {
    /// Transforms each element with `transform` and drops the `nil` results.
    ///
    ///     --1--a--3--|
    ///     compactMap { Int($0) }
    ///     --1-----3--|
    ///
    /// (The source sends the strings `"1"`, `"a"` and `"3"`.)
    ///
    /// A thrown error ends the sequence with that error.
    ///
    /// - Parameter transform: Applied to each element; `nil` drops it.
    /// - Returns: The sequence of non-`nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMap(source: asObservable(), transform: transform)
    }
}

final class CompactMap<SourceElement, Result>: Producer<Result>, @unchecked Sendable {
    typealias Transform = (SourceElement) throws -> Result?

    private let source: Observable<SourceElement>
    private let transform: Transform

    init(source: Observable<SourceElement>, transform: @escaping Transform) {
        self.source = source
        self.transform = transform
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = CompactMapSink(transform: transform, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class CompactMapSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Transform = (SourceElement) throws -> Observer.Element?
    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, handle: SinkDisposer?) {
        self.transform = transform
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            do {
                if let result = try transform(element) { forwardOn(.next(result)) }
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}
