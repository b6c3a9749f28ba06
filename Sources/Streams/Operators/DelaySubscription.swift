extension ObservableType {
    /// Subscribes to the source only after `dueTime`.
    ///
    ///     source:    -1-2-|
    ///     delaySubscription(.seconds(3), scheduler: scheduler)
    ///             ----1-2-|
    ///
    /// - Parameters:
    ///   - dueTime: The delay before subscribing.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The sequence with a delayed subscription.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DelaySubscription(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final class DelaySubscription<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = DelaySubscriptionSink(observer: observer, handle: handle)
        let source = self.source
        let subscription = scheduler.scheduleRelative((), dueTime: dueTime) { [weak sink] _ in
            guard let sink, !sink.isDisposed else { return Disposables.create() }
            return source.subscribe(sink)
        }
        sink.setUpstream(subscription)
        return sink
    }
}

private final class DelaySubscriptionSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Observer.Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
