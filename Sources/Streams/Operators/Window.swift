extension ObservableType {
    /// Splits the elements into windows, each an observable that closes after `timeSpan` or
    /// once it has received `count` elements, whichever comes first.
    ///
    ///     --1-2-3---4-------5----|
    ///     window(timeSpan: .seconds(7), count: 3, scheduler: scheduler).concatMap { $0.toArray() }
    ///     ------A------B------C--(D|)
    ///     where A = [1, 2, 3], B = [4], C = [5], D = []
    ///
    /// The first window opens at subscription and a new one opens as each closes. Windows are
    /// hot: subscribe to a window when it is emitted to see its elements. An error fails the
    /// current window and the outer sequence; completion completes both. A subscribed window
    /// keeps the source subscription alive after the outer subscription is disposed.
    ///
    /// - Parameters:
    ///   - timeSpan: The longest time a window stays open.
    ///   - count: The largest number of elements in a window (≥ 1).
    ///   - scheduler: The scheduler that runs the timers.
    /// - Returns: The sequence of windows.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        precondition(count > 0, "count must be positive")
        return WindowTimeCount(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

final class WindowTimeCount<Element>: Producer<Observable<Element>>, @unchecked Sendable {
    let source: Observable<Element>
    let timeSpan: RxTimeInterval
    let count: Int
    let scheduler: SchedulerType

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Observable<Element> {
        let sink = WindowTimeCountSink(parent: self, observer: observer, handle: handle)
        let subscription = sink.run()
        sink.setUpstream(subscription)
        return sink
    }
}

private final class WindowTimeCountSink<Element, Observer: ObserverType>: OrderedSink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Observable<Element> {
    private let parent: WindowTimeCount<Element>
    private let timer = NewestTimerDisposable()
    private let group = CompositeDisposable()
    private let refCount: RefCountDisposable
    private var subject = PublishSubject<Element>()
    private var count = 0
    private var windowId: UInt64 = 0

    init(parent: WindowTimeCount<Element>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        refCount = RefCountDisposable(disposable: group)
        super.init(observer: observer, handle: handle)
    }

    func run() -> Disposable {
        _ = group.insert(timer)
        synchronized { emitLocked(.next(windowObservable(subject))) }
        startTimer(0)
        _ = group.insert(parent.source.subscribe(self))
        return refCount
    }

    private func windowObservable(_ subject: PublishSubject<Element>) -> Observable<Element> {
        WindowRefCount(source: subject, refCount: refCount)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            // Every subject call is queued in line with the outer events, so a window sees its
            // element, then its completion, before the next window is emitted.
            let restart = synchronized { () -> UInt64? in
                if isTerminatedLocked { return nil }
                let current = subject
                performLocked { current.on(.next(element)) }
                count += 1
                guard count == parent.count else { return nil }
                return openWindowLocked()
            }
            if let restart { startTimer(restart) }
        case .error(let error):
            synchronized {
                let current = subject
                performLocked { current.on(.error(error)) }
                emitLocked(.error(error))
            }
        case .completed:
            synchronized {
                let current = subject
                performLocked { current.on(.completed) }
                emitLocked(.completed)
            }
        }
    }

    /// Completes the current window, then opens and emits a new one; returns its id.
    private func openWindowLocked() -> UInt64 {
        let closed = subject
        performLocked { closed.on(.completed) }
        subject = PublishSubject()
        count = 0
        windowId &+= 1
        emitLocked(.next(windowObservable(subject)))
        return windowId
    }

    private func startTimer(_ id: UInt64) {
        let scheduled = parent.scheduler.scheduleRelative(id, dueTime: parent.timeSpan) { [weak self] id in
            self?.timerFired(id)
            return Disposables.create()
        }
        timer.set(scheduled, id: id)
    }

    private func timerFired(_ id: UInt64) {
        let restart = synchronized { () -> UInt64? in
            guard id == windowId, !isTerminatedLocked else { return nil }
            return openWindowLocked()
        }
        if let restart { startTimer(restart) }
    }
}

/// A window as seen by its subscribers: subscribing holds a reference on the source
/// subscription, so it lives while anyone watches a window.
final class WindowRefCount<Element>: Producer<Element>, @unchecked Sendable {
    private let source: PublishSubject<Element>
    private let refCount: RefCountDisposable

    init(source: PublishSubject<Element>, refCount: RefCountDisposable) {
        self.source = source
        self.refCount = refCount
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let reference = refCount.retain()
        let sink = WindowRefCountSink(observer: observer, handle: handle)
        let subscription = source.subscribe(sink)
        sink.setUpstream(Disposables.create(subscription, reference))
        return sink
    }
}

private final class WindowRefCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Observer.Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
