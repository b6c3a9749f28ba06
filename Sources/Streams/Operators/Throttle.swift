import Foundation

extension ObservableType {
    /// Emits the first element at once, then at most one element per `dueTime`.
    ///
    ///     --123-------45-----|
    ///     throttle(.seconds(4), scheduler: scheduler)
    ///     --1---3-----4---5--|
    ///
    ///     --123-------45-----|
    ///     throttle(.seconds(4), latest: false, scheduler: scheduler)
    ///     --1---------4------|
    ///
    /// An element that arrives when `dueTime` has passed since the last emission is emitted
    /// at once. With `latest` (the default), the last element received during the window is
    /// emitted when the window ends, and completion waits for it; without `latest`, elements
    /// inside the window are dropped. An error is forwarded at once.
    ///
    /// - Parameters:
    ///   - dueTime: The shortest time between two emitted elements.
    ///   - latest: Emit the latest element received during a window when it ends.
    ///   - scheduler: The scheduler that provides the time and runs the timers.
    /// - Returns: The throttled sequence.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        Throttle(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

final class Throttle<Element>: Producer<Element>, @unchecked Sendable {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let latest: Bool
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ThrottleSink(parent: self, observer: observer, handle: handle)
        let subscription = source.subscribe(sink)
        sink.setUpstream(Disposables.create(subscription, sink.timer))
        return sink
    }
}

private final class ThrottleSink<Observer: ObserverType>: OrderedSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let parent: Throttle<Element>
    let timer = SerialDisposable()
    private var lastUnsentElement: Element?
    private var lastSentTime: Date?
    private var completed = false

    init(parent: Throttle<Element>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = parent.scheduler.now
            let dueSeconds = parent.dueTime.seconds
            let delay = synchronized { () -> TimeInterval? in
                let remaining = lastSentTime.map { dueSeconds - now.timeIntervalSince($0) } ?? 0
                if remaining <= 0 {
                    sendNowLocked(element, at: now)
                    return nil
                }
                guard parent.latest else { return nil }
                let alreadyScheduled = lastUnsentElement != nil
                lastUnsentElement = element
                return alreadyScheduled ? nil : remaining
            }
            guard let delay else { return }
            let dueTime = RxTimeInterval.rounded(seconds: delay)
            timer.disposable = parent.scheduler.scheduleRelative((), dueTime: dueTime) { [weak self] _ in
                self?.propagate()
                return Disposables.create()
            }
        case .error:
            synchronized {
                lastUnsentElement = nil
                emitLocked(event)
            }
        case .completed:
            synchronized {
                if lastUnsentElement != nil {
                    completed = true
                } else {
                    emitLocked(.completed)
                }
            }
        }
    }

    private func sendNowLocked(_ element: Element, at time: Date) {
        lastUnsentElement = nil
        emitLocked(.next(element))
        lastSentTime = time
    }

    private func propagate() {
        let now = parent.scheduler.now
        synchronized {
            if let element = lastUnsentElement {
                sendNowLocked(element, at: now)
            }
            if completed {
                emitLocked(.completed)
            }
        }
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
