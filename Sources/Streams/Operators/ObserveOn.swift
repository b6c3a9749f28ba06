import Dispatch
import Locking

extension ObservableType {
    /// Delivers the source's events on `scheduler`, in their original order.
    ///
    ///     source on thread A:  --1--2--|
    ///     observe(on: s)
    ///     on scheduler s:       ---1--2--|
    ///
    /// On a serial scheduler (``SerialDispatchQueueScheduler``, its subclass ``MainScheduler``) events wait
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
        if scheduler is SerialDispatchQueueScheduler {
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

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ObserveOnSerialSink(scheduler: scheduler, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

/// The state of one serial `observe(on:)` subscription: elements wait in a ring buffer (the
/// terminal event, if any, after them), and one scheduled drain at a time delivers them.
///
/// On a ``SerialDispatchQueueScheduler`` a drain is a run of the handler of the sink's own
/// dispatch source, with the sink retained by hand until the drain has run: once the ring and
/// the batch have grown to fit a burst, starting and running drains allocates nothing. On the
/// ``MainScheduler`` a drain is an ordinary scheduled action.
///
/// This is the claim–queue–drain protocol of ``DeliveryQueue``, but its own loop: the
/// deliverer is not the thread that found the queue idle but a drain scheduled on the
/// scheduler, which delivers at most ``batchLimit`` elements moved from the ring into a reused
/// buffer and then schedules the next drain, keeping the terminal event until no element waits
/// before it. `DeliveryQueue` hands over everything queued at once, in an array.
private final class ObserveOnSerialSink<Observer: ObserverType>: Sink<Observer>, ObserverType, ScheduledDrainTarget, @unchecked Sendable {
    typealias Element = Observer.Element

    /// The most events one scheduled drain delivers before it schedules the next and returns,
    /// so that other work on the scheduler's queue runs between the batches of a long burst.
    static var batchLimit: Int { 256 }

    private let scheduler: ImmediateSchedulerType
    /// The scheduler is a main scheduler that runs work at once when allowed (not
    /// ``MainScheduler/asyncInstance``).
    private let drainsInlineOnMain: Bool
    /// On a dispatch-queue scheduler, the source whose event handler runs drains on the
    /// scheduler's queue: adding to it puts the source itself on the queue, so starting a
    /// drain allocates nothing (a block handed to `async` would need a new continuation each
    /// time). Its handler holds the sink unowned: whoever starts a drain retains the sink
    /// first, and the drain releases it at its end, so each addition is one run of the handler.
    private let drainSource: DispatchSourceUserDataAdd?
    private let lock = Lock()
    /// Elements waiting for a drain, oldest first.
    private var waiting = ElementRing<Element>()
    /// The terminal event, waiting behind `waiting`.
    private var waitingStop: Event<Element>?
    /// A terminal event has arrived (a flag, so the element path reads no optional of a
    /// generic type, whose metadata unspecialised code looks up on every call).
    private var stopped = false
    /// A drain is scheduled or running: new events only join the queue.
    private var draining = false
    /// The drain's batch: room for ``batchLimit`` elements, touched by the running drain only.
    private var batch: UnsafeMutablePointer<Element>?

    init(scheduler: ImmediateSchedulerType, observer: Observer, handle: SinkDisposer?) {
        self.scheduler = scheduler
        drainsInlineOnMain = (scheduler as? MainScheduler)?.runsWorkInline ?? false
        // The main scheduler is a serial dispatch queue scheduler by type only: its work waits
        // in its own queue, which a drain runs, so it takes the scheduled-action path.
        drainSource = (scheduler as? SerialDispatchQueueScheduler).flatMap { scheduler in
            scheduler is MainScheduler ? nil : DispatchSource.makeUserDataAddSource(queue: scheduler.configuration.queue)
        }
        super.init(observer: observer, handle: handle)
        if let drainSource {
            drainSource.setEventHandler(handler: makeDrainBlock(self))
            drainSource.activate()
        }
    }

    deinit {
        drainSource?.cancel()
        batch?.deallocate()
    }

    func onNext(_ element: Element) {
        lock.lock()
        if stopped || isDisposed {
            lock.unlock()
            return
        }
        waiting.append(element)
        let startDrain = !draining
        draining = true
        lock.unlock()
        if startDrain { scheduleDrain() }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            lock.lock()
            if stopped || isDisposed {
                lock.unlock()
                return
            }
            stopped = true
            waitingStop = event
            let startDrain = !draining
            draining = true
            lock.unlock()
            if startDrain { scheduleDrain() }
        }
    }

    /// Runs the drain `drainSource` was signalled for, and releases the sink retained for it.
    func runScheduledDrain() {
        drain()
        Unmanaged.passUnretained(self).release()
    }

    private func scheduleDrain() {
        if let drainSource {
            _ = Unmanaged.passRetained(self)
            drainSource.add(data: 1)
            return
        }
        // What `MainScheduler.instance.schedule` would do when it may run work at once (on the
        // main actor, nothing queued or executing), without its generic action and closure:
        // every element of a Driver sent on the main thread takes this path.
        if drainsInlineOnMain, MainScheduler.isOnMainScheduler, MainQueue.shared.beginInline() {
            defer { MainQueue.shared.endInline() }
            drain()
            return
        }
        _ = scheduler.schedule(self) { sink in
            sink.drain()
            return Disposables.create()
        }
    }

    /// Delivers up to ``batchLimit`` waiting elements, in order, then the terminal event once
    /// no element waits before it; schedules the next drain when more are waiting, or ends the
    /// drain when nothing is.
    private func drain() {
        let batch: UnsafeMutablePointer<Element>
        if let existing = self.batch {
            batch = existing
        } else {
            batch = .allocate(capacity: Self.batchLimit)
            self.batch = batch
        }
        lock.lock()
        if isDisposed {
            waiting.removeAll()
            waitingStop = nil
            draining = false
            lock.unlock()
            return
        }
        let count = waiting.moveFirst(upTo: Self.batchLimit, into: batch)
        var stop: Event<Element>?
        // The terminal event counts towards the batch too.
        if stopped, waiting.isEmpty, count < Self.batchLimit {
            stop = waitingStop
            waitingStop = nil
        }
        lock.unlock()
        for index in 0..<count {
            forwardNext(batch[index])
        }
        batch.deinitialize(count: count)
        if let stop {
            forwardOn(stop)
            dispose()
            return
        }
        lock.lock()
        let more = !isDisposed && (!waiting.isEmpty || stopped)
        if !more { draining = false }
        lock.unlock()
        if more { scheduleDrain() }
    }

    override func dispose() {
        super.dispose()
        lock.lock()
        waiting.removeAll()
        waitingStop = nil
        lock.unlock()
    }
}

/// A sink whose drains run from a block made once (see ``makeDrainBlock(_:)``).
protocol ScheduledDrainTarget: AnyObject, Sendable {
    /// Runs one drain and releases the reference retained when it was scheduled.
    func runScheduledDrain()
}

/// The block that runs `target`'s drains. It holds `target` unowned, so it makes no cycle with
/// the sink that keeps it: whoever hands it to a queue retains the target first.
private func makeDrainBlock(_ target: any ScheduledDrainTarget) -> @Sendable @convention(block) () -> Void {
    { [unowned(unsafe) target] in target.runScheduledDrain() }
}

/// A first-in, first-out queue of elements in one circular buffer that doubles when full and
/// keeps its room when emptied, so a queue that has grown to fit a burst allocates no more.
struct ElementRing<Element>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>?
    /// A power of two, or 0 before the first element.
    private var capacity = 0
    private var head = 0
    private(set) var count = 0

    init() {}

    deinit {
        if let storage {
            Self.destroy(storage, capacity: capacity, head: head, count: count)
            storage.deallocate()
        }
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        let storage = storage.unsafelyUnwrapped
        (storage + ((head &+ count) & (capacity &- 1))).initialize(to: element)
        count &+= 1
    }

    /// Moves the first `limit` elements at most into uninitialised `destination`, oldest first.
    ///
    /// - Returns: How many were moved.
    mutating func moveFirst(upTo limit: Int, into destination: UnsafeMutablePointer<Element>) -> Int {
        let moved = min(limit, count)
        guard moved > 0, let storage else { return 0 }
        let beforeWrap = min(moved, capacity - head)
        destination.moveInitialize(from: storage + head, count: beforeWrap)
        if moved > beforeWrap {
            (destination + beforeWrap).moveInitialize(from: storage, count: moved - beforeWrap)
        }
        count -= moved
        head = count == 0 ? 0 : (head + moved) & (capacity - 1)
        return moved
    }

    /// Destroys every waiting element, keeping the room.
    mutating func removeAll() {
        guard let storage, count > 0 else { return }
        Self.destroy(storage, capacity: capacity, head: head, count: count)
        head = 0
        count = 0
    }

    private mutating func grow() {
        let newCapacity = Swift.max(16, capacity * 2)
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let storage {
            let beforeWrap = Swift.min(count, capacity - head)
            newStorage.moveInitialize(from: storage + head, count: beforeWrap)
            (newStorage + beforeWrap).moveInitialize(from: storage, count: count - beforeWrap)
            storage.deallocate()
        }
        storage = newStorage
        capacity = newCapacity
        head = 0
    }

    private static func destroy(_ storage: UnsafeMutablePointer<Element>, capacity: Int, head: Int, count: Int) {
        let beforeWrap = Swift.min(count, capacity - head)
        (storage + head).deinitialize(count: beforeWrap)
        storage.deinitialize(count: count - beforeWrap)
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

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ObserveOnSink(scheduler: scheduler, observer: observer, handle: handle)
        let subscription = source.subscribe(sink)
        sink.setUpstream(Disposables.create(subscription, Disposables.create(with: sink.cancelScheduled)))
        return sink
    }
}

private final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
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

    init(scheduler: ImmediateSchedulerType, observer: Observer, handle: SinkDisposer?) {
        self.scheduler = scheduler
        super.init(observer: observer, handle: handle)
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
