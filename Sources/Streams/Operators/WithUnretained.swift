extension ObservableType {
    /// Pairs each element with `object`, held weakly, and combines them with `resultSelector`;
    /// completes at the first element that arrives after `object` is gone.
    ///
    ///     --1--2--3--|   withUnretained(owner) { $1 * 2 }   --2--4--|   owner freed at frame 7
    ///
    /// Use it instead of `[weak self]` in a chain: the closures downstream get a non-optional
    /// object. Beware of a replaying share downstream (`share(replay: 1)`): its buffer keeps the
    /// object alive.
    ///
    /// - Parameters:
    ///   - object: The object handed with each element; the operator does not retain it.
    ///   - resultSelector: Combines the object and an element.
    /// - Returns: The combined elements.
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out) -> Observable<Out> {
        WithUnretained(source: asObservable(), object: object, resultSelector: resultSelector)
    }

    /// Pairs each element with `object`, held weakly; completes at the first element that
    /// arrives after `object` is gone.
    ///
    ///     --1--2--3--|
    ///     withUnretained(owner), owner freed at frame 7
    ///     --A--B--|
    ///     where A = (owner, 1), B = (owner, 2)
    ///
    ///     viewModel.title
    ///         .withUnretained(self)
    ///         .subscribe(onNext: { owner, title in owner.show(title) })
    ///
    /// - Parameter object: The object handed with each element; the operator does not retain it.
    /// - Returns: Tuples of the object and each element.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Observable<(Object, Element)> {
        withUnretained(object) { ($0, $1) }
    }
}

extension InfallibleType {
    /// Pairs each element with `object`, held weakly, and combines them with `resultSelector`;
    /// completes at the first element that arrives after `object` is gone.
    ///
    ///     --1--2--3--|   withUnretained(owner) { $1 * 2 }   --2--4--|   owner freed at frame 7
    ///
    /// - Parameters:
    ///   - object: The object handed with each element; the operator does not retain it.
    ///   - resultSelector: Combines the object and an element.
    /// - Returns: The combined elements.
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out) -> Infallible<Out> {
        Infallible(asObservable().withUnretained(object, resultSelector: resultSelector))
    }

    /// Pairs each element with `object`, held weakly; completes at the first element that
    /// arrives after `object` is gone.
    ///
    ///     --1--2--3--|
    ///     withUnretained(owner), owner freed at frame 7
    ///     --A--B--|
    ///     where A = (owner, 1), B = (owner, 2)
    ///
    /// - Parameter object: The object handed with each element; the operator does not retain it.
    /// - Returns: Tuples of the object and each element.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Infallible<(Object, Element)> {
        withUnretained(object) { ($0, $1) }
    }
}

private final class WithUnretained<Object: AnyObject, SourceElement, Result>: Producer<Result>, @unchecked Sendable {
    typealias ResultSelector = (Object, SourceElement) -> Result

    private let source: Observable<SourceElement>
    private weak var object: Object?
    private let resultSelector: ResultSelector

    init(source: Observable<SourceElement>, object: Object, resultSelector: @escaping ResultSelector) {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = WithUnretainedSink(object: object, resultSelector: resultSelector, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class WithUnretainedSink<Object: AnyObject, SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias ResultSelector = (Object, SourceElement) -> Observer.Element

    private weak var object: Object?
    private let resultSelector: ResultSelector

    init(object: Object?, resultSelector: @escaping ResultSelector, observer: Observer, handle: SinkDisposer?) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            // The strong reference lives only for this call.
            guard let object else {
                forwardOn(.completed)
                dispose()
                return
            }
            forwardNext(resultSelector(object, element))
        case .error(let error):
            forwardErrorAndDispose(error)
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}
