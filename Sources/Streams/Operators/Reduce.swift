extension ObservableType {
    /// Folds every element into `seed` and sends the final result, mapped by `mapResult`, when
    /// the source completes.
    ///
    ///     --1--2--|
    ///     reduce(0, accumulator: +, mapResult: { $0 * 2 })
    ///     --------(6|)
    ///
    /// An error thrown by `accumulator` or `mapResult` ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - seed: The starting accumulated value.
    ///   - accumulator: Returns the next accumulated value from the current one and an element.
    ///   - mapResult: Turns the final accumulated value into the result.
    /// - Returns: A sequence of one element, the result, then completion.
    public func reduce<Accumulate, Result>(
        _ seed: Accumulate,
        accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
        mapResult: @escaping (Accumulate) throws -> Result
    ) -> Observable<Result> {
        Reduce(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: mapResult)
    }

    /// Folds every element into `seed` and sends the final value when the source completes.
    ///
    ///     --1--2--3--|
    ///     reduce(0, accumulator: +)
    ///     -----------(6|)
    ///
    /// An error thrown by `accumulator` ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - seed: The starting accumulated value; sent as is when the source is empty.
    ///   - accumulator: Returns the next accumulated value from the current one and an element.
    /// - Returns: A sequence of one element, the accumulated value, then completion.
    public func reduce<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate) -> Observable<Accumulate> {
        Reduce(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: { $0 })
    }
}

final class Reduce<Element, Accumulate, Result>: Producer<Result>, @unchecked Sendable {
    private let source: Observable<Element>
    let seed: Accumulate
    let accumulator: (Accumulate, Element) throws -> Accumulate
    let mapResult: (Accumulate) throws -> Result

    init(source: Observable<Element>, seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate, mapResult: @escaping (Accumulate) throws -> Result) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = ReduceSink(parent: self, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class ReduceSink<Element, Accumulate, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Result = Observer.Element
    typealias Parent = Reduce<Element, Accumulate, Result>

    private let parent: Parent
    private var accumulated: Accumulate

    init(parent: Parent, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        self.accumulated = parent.seed
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                accumulated = try parent.accumulator(accumulated, element)
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            do {
                let result = try parent.mapResult(accumulated)
                forwardOn(.next(result))
                forwardOn(.completed)
            } catch {
                forwardOn(.error(error))
            }
            dispose()
        }
    }
}
