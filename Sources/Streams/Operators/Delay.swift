import Foundation

extension ObservableType {
    /// Shifts every element and the completion forward in time by `dueTime`.
    ///
    ///     --1--2--3--|
    ///     delay(.seconds(2), scheduler: scheduler)
    ///     ----1--2--3--|
    ///
    /// An error is not delayed: it is forwarded as soon as it arrives, and elements still
    /// waiting are dropped. Each delayed event is its own scheduled action, so events that
    /// arrived at the same moment are delivered one scheduling step apart (on a
    /// `TestScheduler`, one tick), as in RxSwift.
    ///
    /// - Parameters:
    ///   - dueTime: The shift.
    ///   - scheduler: The scheduler that provides the time and runs the timers.
    /// - Returns: The delayed sequence.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Delay(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final class Delay<Element>: Producer<Element>, @unchecked Sendable {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = DelaySink(parent: self, observer: observer, handle: handle)
        sink.sourceSubscription.setDisposable(source.subscribe(sink))
        sink.setUpstream(Disposables.create(sink.sourceSubscription, sink.timer))
        return sink
    }
}

private final class DelaySink<Observer: ObserverType>: OrderedSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let parent: Delay<Element>
    let sourceSubscription = SingleAssignmentDisposable()
    let timer = SerialDisposable()
    private var queue: [(due: Date, event: Event<Element>)] = []
    private var head = 0
    private var timerActive = false

    init(parent: Delay<Element>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent { sourceSubscription.dispose() }
        if case .error = event {
            synchronized {
                queue.removeAll()
                head = 0
                emitLocked(event)
            }
            return
        }
        let due = parent.scheduler.now.adding(parent.dueTime)
        let startTimer = synchronized { () -> Bool in
            queue.append((due, event))
            if timerActive { return false }
            timerActive = true
            return true
        }
        if startTimer { schedule(after: parent.dueTime) }
    }

    private func schedule(after interval: RxTimeInterval) {
        timer.disposable = parent.scheduler.scheduleRelative((), dueTime: interval) { [weak self] _ in
            self?.drain()
            return Disposables.create()
        }
    }

    /// Emits the first queued event, then schedules the next one at its due time (a moment
    /// later when it is already due): one event per scheduled action, as RxSwift delivers them,
    /// so two events that arrived together reach the observer one scheduling step apart.
    private func drain() {
        let now = parent.scheduler.now
        let next = synchronized { () -> TimeInterval? in
            if head < queue.count {
                emitLocked(queue[head].event)
                head += 1
            }
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
                timerActive = false
                return nil
            }
            return max(0, queue[head].due.timeIntervalSince(now))
        }
        if let next {
            schedule(after: .rounded(seconds: next))
        }
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
