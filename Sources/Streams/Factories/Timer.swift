extension ObservableType where Element: FixedWidthInteger {
    /// Emits `0` after `dueTime`, then, with a `period`, `1`, `2`, … every `period`.
    ///
    ///     timer(.seconds(30))                    ---0|
    ///     timer(.seconds(30), period: .seconds(10))  ---0-1-2-3…
    ///
    /// Without a period the sequence completes right after its single element.
    ///
    /// - Parameters:
    ///   - dueTime: The delay before the first element.
    ///   - period: The time between later elements; `nil` for a single element.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The timer sequence.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        TimerProducer(dueTime: dueTime, period: period, scheduler: scheduler)
    }
}

/// The producer behind `timer` and `interval`.
final class TimerProducer<Element: FixedWidthInteger>: Producer<Element>, @unchecked Sendable {
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?
    private let scheduler: SchedulerType

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        if let period {
            let sink = PeriodicTimerSink(observer: observer, handle: handle)
            let subscription = scheduler.schedulePeriodic(Element.zero, startAfter: dueTime, period: period) { [weak sink] state in
                sink?.forwardOn(.next(state))
                return state &+ 1
            }
            sink.setUpstream(subscription)
            return sink
        }
        let sink = OneShotTimerSink(observer: observer, handle: handle)
        let subscription = scheduler.scheduleRelative(sink, dueTime: dueTime) { sink in
            sink.fire()
            return Disposables.create()
        }
        sink.setUpstream(subscription)
        return sink
    }
}

final class PeriodicTimerSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {}

final class OneShotTimerSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable where Observer.Element: FixedWidthInteger {
    func fire() {
        forwardOn(.next(.zero))
        forwardOn(.completed)
        dispose()
    }
}
