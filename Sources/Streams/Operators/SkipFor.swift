extension ObservableType {
    /// Drops the source's elements for `duration` after subscription, then emits the rest.
    ///
    ///     --1--2--3--4--|
    ///     skip(for: .seconds(7), scheduler: scheduler)
    ///     --------3--4--|
    ///
    /// Errors and completion are forwarded whenever they arrive.
    ///
    /// - Parameters:
    ///   - duration: How long to drop elements for.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The sequence without its first `duration`.
    public func skip(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipForDuration(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

final class SkipForDuration<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = SkipForDurationSink(observer: observer, handle: handle)
        let timer = scheduler.scheduleRelative((), dueTime: duration) { [weak sink] _ in
            _ = sink?.open.setOnce()
            return Disposables.create()
        }
        let subscription = source.subscribe(sink)
        sink.setUpstream(Disposables.create(timer, subscription))
        return sink
    }
}

private final class SkipForDurationSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    let open = AtomicFlag()

    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next:
            if open.isSet { forwardOn(event) }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}
