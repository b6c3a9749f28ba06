extension ObservableType {
    /// A sequence of one element, then completion.
    ///
    ///     just(1): 1|
    ///
    /// - Parameter element: The only element.
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        // Inlined into the caller, which knows the element type: the type of `Just` is looked
        // up once there, not at run time on every call (this is the inner of many a `flatMap`).
        Just(element: element)
    }

    /// A sequence of one element delivered on `scheduler`, then completion.
    ///
    /// - Parameters:
    ///   - element: The only element.
    ///   - scheduler: Where the element and completion are delivered.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        JustScheduled(element: element, scheduler: scheduler)
    }
}

/// The sequence of ``ObservableType/just(_:)``.
@usableFromInline
final class Just<Element>: SinklessProducer<Element>, @unchecked Sendable {
    /// The element, read by flattening operators through ``Observable/shortcutElement``.
    let element: Element

    @usableFromInline
    init(element: Element) { self.element = element }

    override var innerShortcut: InnerShortcut { .element }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        observer.on(.next(element))
        observer.on(.completed)
        return Disposables.create()
    }
}

final class JustScheduled<Element>: Producer<Element>, @unchecked Sendable {
    let element: Element
    let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = JustScheduledSink(observer: observer, handle: handle)
        let subscription = scheduler.schedule(element) { element in
            sink.forwardOn(.next(element))
            return self.scheduler.schedule(()) { _ in
                sink.forwardOn(.completed)
                sink.dispose()
                return Disposables.create()
            }
        }
        sink.setUpstream(subscription)
        return sink
    }
}

final class JustScheduledSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {}
