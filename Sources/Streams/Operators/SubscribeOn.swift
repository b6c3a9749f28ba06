extension ObservableType {
    /// Subscribes to (and later disposes) the source on `scheduler`.
    ///
    ///     subscribe(on: s)      the source's subscription side effects run on s
    ///
    /// Only the subscription and the disposal move; events are delivered wherever the source
    /// produces them (use ``observe(on:)`` to move those).
    ///
    /// - Parameter scheduler: Where the subscription and the disposal run.
    /// - Returns: The same sequence, subscribed on `scheduler`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn(source: self, scheduler: scheduler)
    }
}

/// Holds the source as its own type (not wrapped by `asObservable()`), so the source's own
/// disposable is the one disposed on the scheduler.
final class SubscribeOn<Source: ObservableType>: Producer<Source.Element>, @unchecked Sendable {
    typealias Element = Source.Element

    private let source: Source
    private let scheduler: ImmediateSchedulerType

    init(source: Source, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = SubscribeOnSink(observer: observer, handle: handle)
        let everything = SerialDisposable()
        let pending = SingleAssignmentDisposable()
        everything.disposable = pending
        let source = self.source
        let scheduler = self.scheduler
        pending.setDisposable(scheduler.schedule(()) { [weak sink] _ in
            guard let sink else { return Disposables.create() }
            let subscription = source.subscribe(sink)
            everything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
            return Disposables.create()
        })
        sink.setUpstream(everything)
        return sink
    }
}

private final class SubscribeOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Observer.Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
