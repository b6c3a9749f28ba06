extension ObservableType {
    /// Combines each element of this sequence with the latest element of `second` using
    /// `resultSelector`; elements that arrive before `second` has sent anything are dropped.
    ///
    ///     self:   ---1-----2---3--|
    ///     second: -----5-----6------
    ///     withLatestFrom(second) { $0 + $1 }
    ///             ---------7---9--|
    ///
    /// Completes when this sequence completes; fails when either sequence fails or
    /// `resultSelector` throws. `second` completing changes nothing (its last element stays).
    ///
    /// - Parameters:
    ///   - second: The sequence whose latest element is used.
    ///   - resultSelector: Makes an element from an element of this sequence and the latest
    ///     element of `second`.
    /// - Returns: The combined sequence.
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
        _ second: Source,
        resultSelector: @escaping (Element, Source.Element) throws -> ResultType
    ) -> Observable<ResultType> {
        WithLatestFrom(first: asObservable(), second: second.asObservable(), resultSelector: resultSelector)
    }

    /// Sends the latest element of `second` each time this sequence sends an element, once
    /// `second` has sent one.
    ///
    ///     self:   ---1-----2---3--|
    ///     second: -----5-----6------
    ///     withLatestFrom(second)
    ///             ---------5---6--|
    ///
    /// - Parameter second: The sequence whose latest element is sent.
    /// - Returns: The latest elements of `second`, sampled by this sequence.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFrom(first: asObservable(), second: second.asObservable()) { $1 }
    }
}

final class WithLatestFrom<First, Second, Result>: Producer<Result>, @unchecked Sendable {
    typealias ResultSelector = (First, Second) throws -> Result

    private let first: Observable<First>
    private let second: Observable<Second>
    private let resultSelector: ResultSelector

    init(first: Observable<First>, second: Observable<Second>, resultSelector: @escaping ResultSelector) {
        self.first = first
        self.second = second
        self.resultSelector = resultSelector
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = WithLatestFromSink<First, Second, Observer>(resultSelector: resultSelector, observer: observer, handle: handle)
        let subscription = sink.run(first: first, second: second)
        sink.setUpstream(subscription)
        return sink
    }
}

private final class WithLatestFromSink<First, Second, Observer: ObserverType>: SerializingSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = First
    typealias ResultSelector = (First, Second) throws -> Observer.Element

    private let resultSelector: ResultSelector
    private let secondSubscription = SingleAssignmentDisposable()
    private var latest: Second?

    init(resultSelector: @escaping ResultSelector, observer: Observer, handle: SinkDisposer?) {
        self.resultSelector = resultSelector
        super.init(observer: observer, handle: handle)
    }

    func run(first: Observable<First>, second: Observable<Second>) -> Disposable {
        // `second` first, so that a synchronous `second` is ready for `first`'s elements.
        secondSubscription.setDisposable(second.subscribe(WithLatestFromSecondObserver(sink: self)))
        let firstSubscription = first.subscribe(self)
        return Disposables.create(firstSubscription, secondSubscription)
    }

    func on(_ event: Event<First>) {
        switch event {
        case .next(let element):
            let latest = lock.withLock { isTerminatedLocked ? nil : self.latest }
            guard let latest else { return }
            let result: Observer.Element
            do {
                result = try resultSelector(element, latest)
            } catch {
                send(.error(error))
                return
            }
            send(.next(result))
        case .error(let error):
            send(.error(error))
        case .completed:
            send(.completed)
        }
    }

    fileprivate func secondOn(_ event: Event<Second>) {
        switch event {
        case .next(let value):
            lock.withLock { latest = value }
        case .error(let error):
            send(.error(error))
        case .completed:
            secondSubscription.dispose()
        }
    }
}

private struct WithLatestFromSecondObserver<First, Second, Observer: ObserverType>: ObserverType {
    let sink: WithLatestFromSink<First, Second, Observer>

    func on(_ event: Event<Second>) { sink.secondOn(event) }
}
