extension ObservableType {
    /// Fails with ``StreamsError/timeout`` if the first element, or any element after the
    /// previous one, takes longer than `dueTime` to arrive.
    ///
    ///     --1--2---------3--|
    ///     timeout(.seconds(4), scheduler: scheduler)
    ///     --1--2---#
    ///
    /// (`#` is ``StreamsError/timeout``, which `RxError` names too.)
    ///
    /// - Parameters:
    ///   - dueTime: The longest wait for each element (and for completion).
    ///   - scheduler: The scheduler that runs the timers.
    /// - Returns: The sequence, or a timeout error.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timeout(source: asObservable(), dueTime: dueTime, other: Observable.error(StreamsError.timeout), scheduler: scheduler)
    }

    /// Switches to `other` if the first element, or any element after the previous one, takes
    /// longer than `dueTime` to arrive.
    ///
    ///     source:   --1--2---------3--|
    ///     fallback:          -7-8|
    ///     timeout(.seconds(4), other: fallback, scheduler: scheduler)
    ///               --1--2----7-8|
    ///
    /// - Parameters:
    ///   - dueTime: The longest wait for each element (and for completion).
    ///   - other: The sequence that continues after a timeout.
    ///   - scheduler: The scheduler that runs the timers.
    /// - Returns: The sequence, switching to `other` on a timeout.
    public func timeout<Other: ObservableConvertibleType>(_ dueTime: RxTimeInterval, other: Other, scheduler: SchedulerType) -> Observable<Element> where Other.Element == Element {
        Timeout(source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler)
    }
}

final class Timeout<Element>: Producer<Element>, @unchecked Sendable {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let other: Observable<Element>
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = TimeoutSink(parent: self, observer: observer, handle: handle)
        let subscription = sink.run()
        sink.setUpstream(subscription)
        return sink
    }
}

private final class TimeoutSink<Observer: ObserverType>: OrderedSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let parent: Timeout<Element>
    private let timer = SerialDisposable()
    private let subscription = SerialDisposable()
    private var id: UInt64 = 0
    private var switched = false

    init(parent: Timeout<Element>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        super.init(observer: observer, handle: handle)
    }

    func run() -> Disposable {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        startTimer(0)
        original.setDisposable(parent.source.subscribe(self))
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        let nextId = synchronized { () -> UInt64? in
            if switched { return nil }
            id &+= 1
            emitLocked(event)
            return id
        }
        if let nextId, !event.isStopEvent { startTimer(nextId) }
    }

    private func startTimer(_ timerId: UInt64) {
        if timer.isDisposed { return }
        let scheduled = SingleAssignmentDisposable()
        timer.disposable = scheduled
        scheduled.setDisposable(parent.scheduler.scheduleRelative(timerId, dueTime: parent.dueTime) { [weak self] timerId in
            self?.fire(timerId)
            return Disposables.create()
        })
    }

    private func fire(_ timerId: UInt64) {
        let timerWins = synchronized { () -> Bool in
            if switched || timerId != id || isTerminatedLocked { return false }
            switched = true
            return true
        }
        guard timerWins else { return }
        subscription.disposable = parent.other.subscribe(TimeoutOtherObserver(parent: self))
    }

    fileprivate func forwardOther(_ event: Event<Element>) {
        emit(event)
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
        subscription.dispose()
    }
}

private struct TimeoutOtherObserver<Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element
    let parent: TimeoutSink<Observer>

    func on(_ event: Event<Element>) { parent.forwardOther(event) }
}
