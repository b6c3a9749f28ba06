extension ObservableType {
    /// Sends `default` if the source completes without an element.
    ///
    ///     ------|
    ///     defaultIfEmpty(0)
    ///     ------(0|)
    ///
    /// The same as ``ifEmpty(default:)``, RxSwift 6's name for it.
    ///
    /// - Parameter default: The element sent for an empty source.
    /// - Returns: The source's elements, or `default` alone.
    public func defaultIfEmpty(_ default: Element) -> Observable<Element> {
        DefaultIfEmpty(source: asObservable(), default: `default`)
    }

    /// Sends `default` if the source completes without an element (RxSwift 6's name).
    ///
    ///     ------|
    ///     ifEmpty(default: 0)
    ///     ------(0|)
    ///
    /// - Parameter default: The element sent for an empty source.
    /// - Returns: The source's elements, or `default` alone.
    public func ifEmpty(default: Element) -> Observable<Element> {
        DefaultIfEmpty(source: asObservable(), default: `default`)
    }

    /// Continues with `other` if the source completes without an element.
    ///
    ///     source: ------|
    ///     other:        --7--|
    ///     ifEmpty(switchTo: other)
    ///             --------7--|
    ///
    /// - Parameter other: The sequence subscribed when the source is empty.
    /// - Returns: The source's elements, or `other`'s.
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        SwitchIfEmpty(source: asObservable(), other: other)
    }
}

// MARK: - defaultIfEmpty / ifEmpty(default:)

final class DefaultIfEmpty<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let defaultElement: Element

    init(source: Observable<Element>, default: Element) {
        self.source = source
        self.defaultElement = `default`
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = DefaultIfEmptySink(default: defaultElement, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class DefaultIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let defaultElement: Element
    private var isEmpty = true

    init(default: Element, observer: Observer, handle: SinkDisposer?) {
        self.defaultElement = `default`
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            if isEmpty { forwardOn(.next(defaultElement)) }
            forwardOn(.completed)
            dispose()
        }
    }
}

// MARK: - ifEmpty(switchTo:)

final class SwitchIfEmpty<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    let other: Observable<Element>

    init(source: Observable<Element>, other: Observable<Element>) {
        self.source = source
        self.other = other
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = SwitchIfEmptySink(other: other, observer: observer, handle: handle)
        let sourceSubscription = source.subscribe(sink)
        sink.setUpstream(Disposables.create(sourceSubscription, sink.otherSubscription))
        return sink
    }
}

private final class SwitchIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let other: Observable<Element>
    private var isEmpty = true
    let otherSubscription = SingleAssignmentDisposable()

    init(other: Observable<Element>, observer: Observer, handle: SinkDisposer?) {
        self.other = other
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            guard isEmpty else {
                forwardOn(event)
                dispose()
                return
            }
            otherSubscription.setDisposable(other.subscribe(forwarder()))
        }
    }
}
