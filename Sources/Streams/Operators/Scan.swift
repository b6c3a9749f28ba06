extension ObservableType {
    /// Sends each intermediate result of folding the elements into `seed`, mutated in place.
    ///
    ///     --1--2--3--|
    ///     scan(into: 0) { $0 += $1 }
    ///     --1--3--6--|
    ///
    /// An error thrown by `accumulator` ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - seed: The starting accumulated value (not sent by itself).
    ///   - accumulator: Folds one element into the accumulated value.
    /// - Returns: The sequence of accumulated values, one per element.
    public func scan<Accumulate>(into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void) -> Observable<Accumulate> {
        Scan(source: asObservable(), seed: seed, accumulator: accumulator)
    }

    /// Sends each intermediate result of folding the elements into `seed`.
    ///
    ///     --1--2--3--|
    ///     scan(0, accumulator: +)
    ///     --1--3--6--|
    ///
    /// An error thrown by `accumulator` ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - seed: The starting accumulated value (not sent by itself).
    ///   - accumulator: Returns the next accumulated value from the current one and an element.
    /// - Returns: The sequence of accumulated values, one per element.
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate) -> Observable<Accumulate> {
        Scan(source: asObservable(), seed: seed) { accumulated, element in
            accumulated = try accumulator(accumulated, element)
        }
    }
}

final class Scan<Element, Accumulate>: Producer<Accumulate>, @unchecked Sendable {
    typealias Accumulator = (inout Accumulate, Element) throws -> Void

    private let source: Observable<Element>
    let seed: Accumulate
    let accumulator: Accumulator

    init(source: Observable<Element>, seed: Accumulate, accumulator: @escaping Accumulator) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Accumulate {
        let sink = ScanSink(parent: self, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class ScanSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Accumulate = Observer.Element

    private let accumulator: (inout Accumulate, Element) throws -> Void
    private var accumulated: Accumulate

    init(parent: Scan<Element, Accumulate>, observer: Observer, handle: SinkDisposer?) {
        self.accumulator = parent.accumulator
        self.accumulated = parent.seed
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                try accumulator(&accumulated, element)
                forwardOn(.next(accumulated))
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
