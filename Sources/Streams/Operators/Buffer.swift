extension ObservableType {
    /// Collects elements into arrays, emitted every `timeSpan` or as soon as one holds
    /// `count` elements, whichever comes first.
    ///
    ///     --1-2-3---4-------5----|
    ///     buffer(timeSpan: .seconds(7), count: 3, scheduler: scheduler)
    ///     ------A------B------C--(D|)
    ///     where A = [1, 2, 3], B = [4], C = [5], D = []
    ///
    /// Reaching `count` emits at once and restarts the time span. A span that ends with no
    /// elements emits an empty array. On completion the current buffer is emitted (even if
    /// empty), then completion; an error is forwarded at once and drops the buffer.
    ///
    /// - Parameters:
    ///   - timeSpan: The longest time a buffer stays open.
    ///   - count: The largest number of elements in a buffer (≥ 1).
    ///   - scheduler: The scheduler that runs the timers.
    /// - Returns: The sequence of buffers.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        precondition(count > 0, "count must be positive")
        return BufferTimeCount(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

final class BufferTimeCount<Element>: Producer<[Element]>, @unchecked Sendable {
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

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == [Element] {
        let sink = BufferTimeCountSink(parent: self, observer: observer, handle: handle)
        sink.startTimer(0)
        let subscription = source.subscribe(sink)
        sink.setUpstream(Disposables.create(subscription, sink.timer))
        return sink
    }
}

private final class BufferTimeCountSink<Element, Observer: ObserverType>: OrderedSink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == [Element] {
    private let parent: BufferTimeCount<Element>
    let timer = NewestTimerDisposable()
    private var buffer: [Element] = []
    private var windowId: UInt64 = 0

    init(parent: BufferTimeCount<Element>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let restart = synchronized { () -> UInt64? in
                buffer.append(element)
                guard buffer.count == parent.count else { return nil }
                return emitBufferLocked()
            }
            if let restart { startTimer(restart) }
        case .error(let error):
            synchronized {
                buffer = []
                emitLocked(.error(error))
            }
        case .completed:
            synchronized {
                emitLocked(.next(buffer))
                buffer = []
                emitLocked(.completed)
            }
        }
    }

    /// Emits the current buffer, opens a new one and returns its id.
    private func emitBufferLocked() -> UInt64 {
        windowId &+= 1
        let full = buffer
        buffer = []
        emitLocked(.next(full))
        return windowId
    }

    func startTimer(_ id: UInt64) {
        let scheduled = parent.scheduler.scheduleRelative(id, dueTime: parent.timeSpan) { [weak self] id in
            self?.timerFired(id)
            return Disposables.create()
        }
        timer.set(scheduled, id: id)
    }

    private func timerFired(_ id: UInt64) {
        let restart = synchronized { () -> UInt64? in
            guard id == windowId, !isTerminatedLocked else { return nil }
            return emitBufferLocked()
        }
        if let restart { startTimer(restart) }
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
