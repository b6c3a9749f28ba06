extension ObservableType {
    /// Emits an element only after `dueTime` has passed without another element.
    ///
    ///     --1-2-----3-----4-5---|
    ///     debounce(.seconds(2), scheduler: scheduler)
    ///     ------2-----3-------5-|
    ///
    /// On completion the pending element, if any, is emitted at once before completing; an
    /// error is forwarded at once and drops the pending element.
    ///
    /// - Parameters:
    ///   - dueTime: The quiet time an element must be followed by.
    ///   - scheduler: The scheduler that runs the timers.
    /// - Returns: The debounced sequence.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final class Debounce<Element>: Producer<Element>, @unchecked Sendable {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = DebounceSink(parent: self, observer: observer, handle: handle)
        let subscription = source.subscribe(sink)
        sink.setUpstream(Disposables.create(subscription, sink.timer))
        return sink
    }
}

private final class DebounceSink<Observer: ObserverType>: OrderedSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let parent: Debounce<Element>
    let timer = SerialDisposable()
    private var id: UInt64 = 0
    private var value: Element?

    init(parent: Debounce<Element>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let currentId = synchronized { () -> UInt64 in
                id &+= 1
                value = element
                return id
            }
            timer.disposable = parent.scheduler.scheduleRelative(currentId, dueTime: parent.dueTime) { [weak self] id in
                self?.propagate(id)
                return Disposables.create()
            }
        case .error:
            synchronized {
                value = nil
                emitLocked(event)
            }
        case .completed:
            synchronized {
                if let pending = value {
                    value = nil
                    emitLocked(.next(pending))
                }
                emitLocked(.completed)
            }
        }
    }

    private func propagate(_ timerId: UInt64) {
        synchronized {
            guard timerId == id, let pending = value else { return }
            value = nil
            emitLocked(.next(pending))
        }
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
