extension ObservableType {
    /// Emits the latest source element each time `sampler` ticks, if the source produced a
    /// new element since the previous tick (or `defaultValue` otherwise, when given).
    ///
    ///     source:  --1-2-----3-------|
    ///     sampler: ----0--0----0--0-----0|
    ///     sample(sampler)
    ///              ----2-------3--------|
    ///
    /// The sampler's completion counts as a last tick. The result completes at the first
    /// tick after the source completed; an error from either sequence is forwarded at once.
    ///
    /// - Parameters:
    ///   - sampler: The sequence whose elements trigger sampling.
    ///   - defaultValue: Emitted on a tick when the source has produced nothing new.
    /// - Returns: The sampled sequence.
    public func sample<Source: ObservableType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<Element> {
        Sample(source: asObservable(), sampler: sampler.asObservable(), defaultValue: defaultValue)
    }
}

final class Sample<Element, SamplerElement>: Producer<Element>, @unchecked Sendable {
    let source: Observable<Element>
    let sampler: Observable<SamplerElement>
    let defaultValue: Element?

    init(source: Observable<Element>, sampler: Observable<SamplerElement>, defaultValue: Element?) {
        self.source = source
        self.sampler = sampler
        self.defaultValue = defaultValue
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = SampleSink<Observer, SamplerElement>(defaultValue: defaultValue, observer: observer, handle: handle)
        let subscription = sink.run(source: source, sampler: sampler)
        sink.setUpstream(subscription)
        return sink
    }
}

private final class SampleSink<Observer: ObserverType, SamplerElement>: OrderedSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let defaultValue: Element?
    let sourceSubscription = SingleAssignmentDisposable()
    let samplerSubscription = SingleAssignmentDisposable()
    private var element: Element?
    private var atEnd = false

    init(defaultValue: Element?, observer: Observer, handle: SinkDisposer?) {
        self.defaultValue = defaultValue
        super.init(observer: observer, handle: handle)
    }

    func run(source: Observable<Element>, sampler: Observable<SamplerElement>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        samplerSubscription.setDisposable(sampler.subscribe(SamplerObserver(parent: self)))
        return Disposables.create(sourceSubscription, samplerSubscription)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            synchronized { element = value }
        case .error:
            emit(event)
        case .completed:
            synchronized { atEnd = true }
            sourceSubscription.dispose()
        }
    }

    fileprivate func tick() {
        synchronized {
            if let value = element ?? defaultValue {
                element = nil
                emitLocked(.next(value))
            }
            if atEnd {
                emitLocked(.completed)
            }
        }
    }
}

private struct SamplerObserver<Observer: ObserverType, SamplerElement>: ObserverType {
    let parent: SampleSink<Observer, SamplerElement>

    func on(_ event: Event<SamplerElement>) {
        switch event {
        case .next, .completed:
            parent.tick()
            if event.isCompleted { parent.samplerSubscription.dispose() }
        case .error(let error):
            parent.emit(.error(error))
        }
    }
}
