extension ObservableType {
    /// Splits the elements into windows, each an observable that closes after `timeSpan` or
    /// once it has received `count` elements, whichever comes first.
    ///
    ///     --1-2-3---4-------5----|
    ///     window(timeSpan: 70, count: 3)
    ///     w0: --1-2-3|
    ///     w1:        ---4---|
    ///     w2:               --5--|
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Observable<Element> {
        let sink = WindowTimeCountSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink, subscription)
    }
}

final class WindowTimeCountSink<Element, Observer: ObserverType>: OrderedSink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Observable<Element> {
    private let parent: WindowTimeCount<Element>
    private let timer = SerialDisposable()
    private let group = CompositeDisposable()
    private let refCount: RefCountDisposable
    private var subject = PublishSubject<Element>()
    private var count = 0
    private var windowId: UInt64 = 0

    init(parent: WindowTimeCount<Element>, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        refCount = RefCountDisposable(disposable: group)
        super.init(observer: observer, cancel: cancel)
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
            // Elements reach the current window under the sink's order; the subject itself
            // is called after the lock is released.
            let (current, closed, restart) = synchronized { () -> (PublishSubject<Element>, PublishSubject<Element>?, UInt64?) in
                let current = subject
                count += 1
                guard count == parent.count else { return (current, nil, nil) }
                let (closed, id) = openWindowLocked()
                return (current, closed, id)
            }
            current.on(.next(element))
            closed?.on(.completed)
            if let restart { startTimer(restart) }
        case .error(let error):
            let current = synchronized { () -> PublishSubject<Element> in
                emitLocked(.error(error))
                return subject
            }
            current.on(.error(error))
        case .completed:
            let current = synchronized { () -> PublishSubject<Element> in
                emitLocked(.completed)
                return subject
            }
            current.on(.completed)
        }
    }

    /// Closes the current window, opens and emits a new one; returns the closed window and
    /// the new window's id.
    private func openWindowLocked() -> (PublishSubject<Element>, UInt64) {
        let closed = subject
        subject = PublishSubject()
        count = 0
        windowId &+= 1
        emitLocked(.next(windowObservable(subject)))
        return (closed, windowId)
    }

    private func startTimer(_ id: UInt64) {
        timer.disposable = parent.scheduler.scheduleRelative(id, dueTime: parent.timeSpan) { [weak self] id in
            self?.timerFired(id)
            return Disposables.create()
        }
    }

    private func timerFired(_ id: UInt64) {
        let result = synchronized { () -> (PublishSubject<Element>, UInt64)? in
            guard id == windowId, !isTerminatedLocked else { return nil }
            return openWindowLocked()
        }
        guard let (closed, restart) = result else { return }
        closed.on(.completed)
        startTimer(restart)
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let reference = refCount.retain()
        let sink = WindowRefCountSink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, Disposables.create(subscription, reference))
    }
}

final class WindowRefCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Observer.Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
