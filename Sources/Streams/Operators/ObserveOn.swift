extension ObservableType {
    /// Delivers the source's events on `scheduler`, in their original order.
    ///
    ///     source on thread A:  --1--2--|
    ///     observe(on: s)
    ///     on scheduler s:       ---1--2--|
    ///
    /// On a serial scheduler (``SerialDispatchQueueScheduler``, ``MainScheduler``) events wait
    /// in a queue and one scheduled drain delivers them in order: a burst costs one work item,
    /// not one per element. A drain delivers at most 256 events, then schedules the next drain
    /// and returns, so other work on the same queue runs between the batches of a long burst.
    /// On any other scheduler (a `TestScheduler`, a concurrent or operation-queue scheduler)
    /// each event is delivered by a scheduled action of its own, scheduled once the previous
    /// one was delivered, as in RxSwift: events that arrive together reach the observer one
    /// scheduling step apart (on a `TestScheduler`, one tick each). Either way the events of one
    /// subscription arrive in their original order and never overlap, even on a concurrent
    /// scheduler. Disposing stops delivery of events still waiting.
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
        super.init()
        Resources.serialObserveOnStarted()
    }

    deinit { Resources.serialObserveOnEnded() }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ObserveOnSerialSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}

final class ObserveOnSerialSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    /// The most events one scheduled drain delivers before it schedules the next and returns,
    /// so that other work on the scheduler's queue runs between the batches of a long burst.
    static var batchLimit: Int { 256 }

    private let scheduler: ImmediateSchedulerType
    private let lock = Lock()
    /// Events waiting for a drain, from `head` on.
    private var queue: [Event<Element>] = []
    private var head = 0
    /// A drain is scheduled or running: new events only join the queue.
    private var draining = false
    /// The drain's batch, reused across batches (touched by the draining action only).
    private var batch: [Event<Element>] = []

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: Cancelable) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        let startDrain = lock.withLock { () -> Bool in
            queue.append(event)
            if draining { return false }
            draining = true
            return true
        }
        if startDrain { scheduleDrain() }
    }

    private func scheduleDrain() {
        _ = scheduler.schedule(self) { sink in
            sink.drain()
            return Disposables.create()
        }
    }

    /// Delivers up to ``batchLimit`` queued events, in order; schedules the next drain when
    /// more are waiting, or ends the drain when the queue is empty.
    private func drain() {
        lock.withLock {
            if isDisposed {
                queue.removeAll()
                head = 0
                draining = false
                return
            }
            let end = min(queue.count, head + Self.batchLimit)
            batch.append(contentsOf: queue[head..<end])
            head = end
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
        }
        for event in batch {
            forwardOn(event)
            if event.isStopEvent {
                batch.removeAll()
                dispose()
                return
            }
        }
        batch.removeAll(keepingCapacity: true)
        let more = lock.withLock { () -> Bool in
            if queue.count > head, !isDisposed { return true }
            draining = false
            return false
        }
        if more { scheduleDrain() }
    }

    override func dispose() {
        super.dispose()
        lock.withLock {
            queue.removeAll()
            head = 0
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
