extension ObservableType {
    /// A sequence of the given elements, then completion.
    ///
    ///     of(1, 2, 3): 123|
    ///
    /// - Parameters:
    ///   - elements: The elements, in order.
    ///   - scheduler: Where they are delivered; the default trampolines on the current thread.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(elements: elements, scheduler: scheduler)
    }

    /// A sequence of the elements of an array, then completion.
    ///
    /// - Parameters:
    ///   - array: The elements.
    ///   - scheduler: Where they are delivered.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(elements: array, scheduler: scheduler)
    }

    /// A sequence of the elements of any `Sequence`, then completion.
    ///
    /// - Parameters:
    ///   - sequence: The elements.
    ///   - scheduler: Where they are delivered.
    public static func from<Source: Sequence>(_ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> where Source.Element == Element {
        ObservableSequence(elements: sequence, scheduler: scheduler)
    }

    /// One element if `optional` holds a value, then completion; otherwise just completion.
    ///
    /// - Parameter optional: The value, if any.
    public static func from(optional: Element?) -> Observable<Element> {
        guard let optional else { return EmptyProducer() }
        return Just(element: optional)
    }

    /// One element if `optional` holds a value, then completion, delivered on `scheduler`.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObservableOptional(optional: optional, scheduler: scheduler)
    }
}

final class ObservableSequence<Source: Sequence>: Producer<Source.Element>, @unchecked Sendable {
    let elements: Source
    let scheduler: ImmediateSchedulerType

    init(elements: Source, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    /// ``InnerShortcut/steps`` on the current thread's trampoline (the default scheduler); any
    /// other scheduler decides itself when the elements go, so the sequence is subscribed.
    override var innerShortcut: InnerShortcut {
        scheduler is CurrentThreadScheduler ? .steps : .subscribe
    }

    override func deliverSteps(in trampoline: TrampolineState, next: (Element) -> Bool, rest: (Observable<Element>) -> Void) -> Bool {
        var iterator = elements.makeIterator()
        while true {
            // The step of `run` takes the next element only when the trampoline runs it.
            if trampoline.hasQueuedWork {
                rest(ObservableSequence<IteratorSequence<Source.Iterator>>(elements: IteratorSequence(iterator), scheduler: scheduler))
                return false
            }
            guard let element = iterator.next() else { return true }
            if !next(element) { return false }
        }
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ObservableSequenceSink(observer: observer, handle: handle)
        let subscription = scheduler.scheduleRecursive(elements.makeIterator()) { iterator, recurse in
            var iterator = iterator
            if let next = iterator.next() {
                sink.forwardOn(.next(next))
                recurse(iterator)
            } else {
                sink.forwardOn(.completed)
                sink.dispose()
            }
        }
        sink.setUpstream(subscription)
        return sink
    }
}

final class ObservableSequenceSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {}

/// `from(optional:scheduler:)`: the element (if any) and completion, each a step of the
/// scheduler. (With no scheduler, `from(optional:)` is a ``Just`` or an ``EmptyProducer``.)
final class ObservableOptional<Element>: Producer<Element>, @unchecked Sendable {
    let optional: Element?
    let scheduler: ImmediateSchedulerType

    init(optional: Element?, scheduler: ImmediateSchedulerType) {
        self.optional = optional
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ObservableSequenceSink(observer: observer, handle: handle)
        let scheduler = self.scheduler
        let subscription = scheduler.schedule(optional) { optional in
            if let value = optional {
                sink.forwardOn(.next(value))
                return scheduler.schedule(()) { _ in
                    sink.forwardOn(.completed)
                    sink.dispose()
                    return Disposables.create()
                }
            }
            sink.forwardOn(.completed)
            sink.dispose()
            return Disposables.create()
        }
        sink.setUpstream(subscription)
        return sink
    }
}
