extension ObservableType {
    /// A sequence that sends `element` again and again, without end.
    ///
    ///     repeatElement(1): 1111111…
    ///
    /// Limit it with an operator such as `take(_:)`.
    ///
    /// - Parameters:
    ///   - element: The element repeated.
    ///   - scheduler: Where the elements are delivered; the default trampolines on the current
    ///     thread, so the repetition never grows the stack.
    /// - Returns: The endless sequence.
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        RepeatElement(element: element, scheduler: scheduler)
    }
}

final class RepeatElement<Element>: Producer<Element>, @unchecked Sendable {
    private let element: Element
    private let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ProducerSink(observer: observer, handle: handle)
        let subscription = scheduler.scheduleRecursive(element) { element, recurse in
            sink.forwardOn(.next(element))
            recurse(element)
        }
        sink.setUpstream(subscription)
        return sink
    }
}
