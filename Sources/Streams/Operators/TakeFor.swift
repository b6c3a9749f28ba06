extension ObservableType {
    /// Emits the source's elements for `duration` after subscription, then completes.
    ///
    ///     --1--2--3--4--|
    ///     take(for: .seconds(7), scheduler: scheduler)
    ///     --1--2-|
    ///
    /// - Parameters:
    ///   - duration: How long to take elements for.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The sequence, cut off after `duration`.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TakeForDuration(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

final class TakeForDuration<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = TakeForDurationSink(observer: observer, handle: handle)
        let timer = scheduler.scheduleRelative((), dueTime: duration) { [weak sink] _ in
            sink?.emit(.completed)
            return Disposables.create()
        }
        let subscription = source.subscribe(sink)
        sink.setUpstream(Disposables.create(timer, subscription))
        return sink
    }
}

private final class TakeForDurationSink<Observer: ObserverType>: OrderedSink<Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Observer.Element>) {
        emit(event)
    }
}
