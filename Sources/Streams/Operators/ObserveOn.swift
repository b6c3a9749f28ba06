extension ObservableType {
    /// Delivers the source's events on `scheduler`, in their original order.
    ///
    ///     source on thread A:  --1--2--|
    ///     observe(on: s)
    ///     on scheduler s:       ---1--2--|
    ///
    /// On a serial scheduler (``SerialDispatchQueueScheduler``, ``MainScheduler``) each event
    /// is scheduled on its own, since the queue keeps their order. On any other scheduler the
    /// events wait in a queue that one scheduled action at a time drains, so the observer is
    /// never called concurrently even on a concurrent scheduler. Disposing stops delivery of
    /// events still waiting.
    ///
    /// - Parameter scheduler: Where the observer is called.
    /// - Returns: The same sequence, observed on `scheduler`.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        if scheduler is SerialDispatchQueueScheduler || scheduler is MainScheduler {
            return ObserveOnSerial(source: asObservable(), scheduler: scheduler)
        }
        return ObserveOn(source: asObservable(), scheduler: scheduler)
    }
}

/// `observe(on:)` for schedulers that run work one at a time in the order it was scheduled.
final class ObserveOnSerial<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ObserveOnSerialSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}

final class ObserveOnSerialSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    private let scheduler: ImmediateSchedulerType

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: Cancelable) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Observer.Element>) {
        _ = scheduler.schedule((self, event)) { sink, event in
            sink.forwardOn(event)
            if event.isStopEvent { sink.dispose() }
            return Disposables.create()
        }
    }
}

/// `observe(on:)` for any scheduler: a queue drained by one scheduled action at a time.
final class ObserveOn<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ObserveOnSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, Disposables.create(subscription, sink.scheduled))
    }
}

final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: ImmediateSchedulerType
    private let lock = Lock()
    private var queue: [Event<Element>] = []
    private var batch: [Event<Element>] = []
    private var running = false
    let scheduled = SerialDisposable()

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: Cancelable) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        let start = lock.withLock { () -> Bool in
            queue.append(event)
            if running { return false }
            running = true
            return true
        }
        guard start else { return }
        scheduled.disposable = scheduler.schedule(self) { sink in
            sink.drain()
            return Disposables.create()
        }
    }

    /// Delivers queued events until the queue is empty; events queued meanwhile are
    /// delivered by the same run.
    private func drain() {
        while true {
            let hasWork = lock.withLock { () -> Bool in
                if queue.isEmpty || isDisposed {
                    running = false
                    queue.removeAll()
                    return false
                }
                swap(&queue, &batch)
                return true
            }
            guard hasWork else { return }
            for event in batch {
                forwardOn(event)
                if event.isStopEvent {
                    dispose()
                    break
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }

    override func dispose() {
        super.dispose()
        scheduled.dispose()
    }
}
