extension ObservableType {
    /// Maps an element to a sequence with `selector` only while no inner sequence is running,
    /// and forwards that sequence's elements; elements that arrive meanwhile are dropped.
    ///
    ///     source: --a--b---c------|
    ///     a:        1---2|
    ///     c:               3---4|
    ///     flatMapFirst { $0 }
    ///             --1---2--3---4--|
    ///
    /// `selector` is not called for dropped elements. Completes when the source and the
    /// running inner sequence have completed; fails as soon as either fails or `selector` throws.
    ///
    /// - Parameter selector: Makes the inner sequence for an accepted element.
    /// - Returns: The elements of the inner sequences that were subscribed.
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMapFirst(source: asObservable()) { try selector($0).asObservable() }
    }
}

final class FlatMapFirst<SourceElement, Result>: Producer<Result>, @unchecked Sendable {
    typealias Selector = (SourceElement) throws -> Observable<Result>

    private let source: Observable<SourceElement>
    private let selector: Selector

    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = FlatMapFirstSink<SourceElement, Observer>(selector: selector, observer: observer, handle: handle)
        let subscription = sink.run(source)
        sink.setUpstream(subscription)
        return sink
    }
}

private final class FlatMapFirstSink<SourceElement, Observer: ObserverType>: SerializingSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Selector = (SourceElement) throws -> Observable<Observer.Element>

    private let selector: Selector
    private let outerSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()
    private var hasInner = false
    private var outerStopped = false

    init(selector: @escaping Selector, observer: Observer, handle: SinkDisposer?) {
        self.selector = selector
        super.init(observer: observer, handle: handle)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        outerSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(outerSubscription, innerSubscription)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let accepted = lock.withLock { () -> Bool in
                if isTerminatedLocked || hasInner { return false }
                hasInner = true
                return true
            }
            guard accepted else { return }
            let inner: Observable<Observer.Element>
            do {
                inner = try selector(element)
            } catch {
                send(.error(error))
                return
            }
            switch inner.innerShortcut {
            case .element:
                // An inner `just` sends its element and completes at once: no subscription.
                let element = inner.shortcutElement
                CurrentThreadScheduler.runInTrampoline { _, _ in
                    sendNext(element)
                    innerEnded()
                }
                return
            case .completion:
                innerEnded()
                return
            case .subscribe, .steps:
                break
            }
            let subscription = SingleAssignmentDisposable()
            innerSubscription.disposable = subscription
            subscription.setDisposable(inner.subscribe(FlatMapFirstInnerObserver(sink: self, subscription: subscription)))
        case .error(let error):
            send(.error(error))
        case .completed:
            let complete = lock.withLock { () -> Bool in
                outerStopped = true
                return !hasInner
            }
            if complete {
                send(.completed)
            } else {
                outerSubscription.dispose()
            }
        }
    }

    fileprivate func innerCompleted(_ subscription: Disposable) {
        subscription.dispose()
        innerEnded()
    }

    /// The running inner completed: the next element is accepted, and the whole completes if
    /// the source has.
    private func innerEnded() {
        let complete = lock.withLock { () -> Bool in
            hasInner = false
            return outerStopped
        }
        if complete { send(.completed) }
    }
}

private struct FlatMapFirstInnerObserver<SourceElement, Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element
    let sink: FlatMapFirstSink<SourceElement, Observer>
    let subscription: Disposable

    func on(_ event: Event<Element>) {
        switch event {
        case .next, .error:
            sink.send(event)
        case .completed:
            sink.innerCompleted(subscription)
        }
    }
}
