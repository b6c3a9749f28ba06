extension ObservableType {
    /// Delivers the source's events on `scheduler`, in their original order.
    ///
    ///     source on thread A:  --1--2--|
    ///     observe(on: s)
    ///     on scheduler s:       ---1--2--|
    ///
    /// Each event is delivered by a scheduled action of its own, so events that arrive together
    /// reach the observer one scheduling step apart (on a `TestScheduler`, one tick each), as in
    /// RxSwift. On a serial scheduler (``SerialDispatchQueueScheduler``, ``MainScheduler``) each
    /// event is scheduled as it arrives, since the queue keeps their order. On any other
    /// scheduler the events wait in a queue and the next is scheduled only once the previous was
    /// delivered, so the observer is never called concurrently even on a concurrent scheduler.
    /// Disposing stops delivery of events still waiting.
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
        return (sink, Disposables.create(subscription, Disposables.create(with: sink.cancelScheduled)))
    }
}

final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: ImmediateSchedulerType
    private let lock = Lock()
    private var queue: [Event<Element>] = []
    private var head = 0
    private var running = false
    /// The pending delivery, if any, and how many have been scheduled: a delivery that runs
    /// before its scheduling call returned may already have scheduled the next one, so the
    /// older one's disposable is kept only if no newer one exists (else it would replace, and
    /// cancel, its successor).
    private var pending: Disposable?
    private var scheduledCount = 0

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
        scheduleDelivery()
    }

    private func scheduleDelivery() {
        let ticket = lock.withLock { () -> Int in
            scheduledCount += 1
            return scheduledCount
        }
        let delivery = scheduler.schedule(self) { sink in
            sink.deliver()
            return Disposables.create()
        }
        let cancelNow = lock.withLock { () -> Bool in
            if isDisposed { return true }
            if scheduledCount == ticket { pending = delivery }
            return false
        }
        if cancelNow { delivery.dispose() }
    }

    /// Cancels the delivery waiting on the scheduler (events still queued are dropped).
    func cancelScheduled() {
        let delivery = lock.withLock { () -> Disposable? in
            defer { pending = nil }
            return pending
        }
        delivery?.dispose()
    }

    /// Delivers the oldest queued event; if more are queued, schedules their delivery again.
    /// One event per scheduled action (as RxSwift), so a burst reaches the observer one
    /// scheduling step per event; on the `ImmediateScheduler`, which has no steps, the burst is
    /// delivered in a loop instead of by recursion.
    private func deliver() {
        repeat {
            let event = lock.withLock { () -> Event<Element>? in
                if head == queue.count || isDisposed {
                    running = false
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                    return nil
                }
                head += 1
                return queue[head - 1]
            }
            guard let event else { return }
            forwardOn(event)
            if event.isStopEvent {
                dispose()
                return
            }
            let more = lock.withLock { () -> Bool in
                if head == queue.count || isDisposed {
                    running = false
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                    return false
                }
                return true
            }
            guard more else { return }
        } while scheduler is ImmediateScheduler
        scheduleDelivery()
    }

    override func dispose() {
        super.dispose()
        cancelScheduled()
    }
}
