/// RxSwift's name for the integer types that `range`, `interval` and `timer` count in.
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// A sequence of `count` consecutive integers starting at `start`, then completion.
    ///
    ///     range(start: 3, count: 4): 3456|
    ///
    /// - Precondition: `count` is not negative and `start + count - 1` does not overflow.
    /// - Parameters:
    ///   - start: The first integer.
    ///   - count: How many integers to send.
    ///   - scheduler: Where the integers are delivered; the default trampolines on the current
    ///     thread, so a long range never grows the stack.
    /// - Returns: The sequence of integers.
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        if count > 0 {
            precondition(!start.addingReportingOverflow(count - 1).overflow, "range overflows its element type")
        }
        return RangeProducer(start: start, count: count, scheduler: scheduler)
    }
}

final class RangeProducer<Element: FixedWidthInteger>: Producer<Element>, @unchecked Sendable {
    private let start: Element
    private let count: Element
    private let scheduler: ImmediateSchedulerType

    init(start: Element, count: Element, scheduler: ImmediateSchedulerType) {
        self.start = start
        self.count = count
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ProducerSink(observer: observer, handle: handle)
        let start = self.start
        let count = self.count
        let subscription = scheduler.scheduleRecursive(Element.zero) { offset, recurse in
            if offset < count {
                sink.forwardOn(.next(start + offset))
                recurse(offset + 1)
            } else {
                sink.forwardOn(.completed)
                sink.dispose()
            }
        }
        sink.setUpstream(subscription)
        return sink
    }
}

/// The sink of a creation operator: it only forwards what the producer's schedule sends.
final class ProducerSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {}
