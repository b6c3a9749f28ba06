extension ObservableType {
    /// Maps each element to a sequence with `selector` and forwards only the elements of the
    /// most recent one: a new element disposes the previous inner subscription.
    ///
    ///     source: --a-------b-----|
    ///     a:        1--2--3--4|
    ///     b:                5---6|
    ///     flatMapLatest { $0 }
    ///             --1--2--3-5---6-|
    ///
    /// Completes when the source and the latest inner sequence have completed; fails as soon
    /// as the source or the latest inner sequence fails, or `selector` throws.
    ///
    /// - Parameter selector: Makes the inner sequence for an element.
    /// - Returns: The elements of the latest inner sequence.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        Switch(source: asObservable()) { try selector($0).asObservable() }
    }
}

/// The engine of `flatMapLatest` and `switchLatest`: one inner subscription at a time, each new
/// outer element replacing it; events of replaced inners are ignored.
final class Switch<SourceElement, Result>: Producer<Result>, @unchecked Sendable {
    typealias Selector = (SourceElement) throws -> Observable<Result>

    private let source: Observable<SourceElement>
    private let selector: Selector

    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = SwitchSink<SourceElement, Observer>(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}

final class SwitchSink<SourceElement, Observer: ObserverType>: OrderedDeliverySink<Observer.Element, Observer>, ObserverType, @unchecked Sendable {
    typealias Selector = (SourceElement) throws -> Observable<Observer.Element>

    private let selector: Selector
    private let outerSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()
    private var latest: UInt64 = 0
    private var hasLatest = false
    private var outerStopped = false
    private var stopped = false

    init(selector: @escaping Selector, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel) { $0 }
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        outerSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(outerSubscription, innerSubscription)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Observable<Observer.Element>
            do {
                inner = try selector(element)
            } catch {
                stop(with: error)
                return
            }
            let id = lock.withLock { () -> UInt64? in
                if stopped { return nil }
                latest &+= 1
                hasLatest = true
                return latest
            }
            guard let id else { return }
            let subscription = SingleAssignmentDisposable()
            // Disposes the previous inner subscription before the new one starts.
            innerSubscription.disposable = subscription
            subscription.setDisposable(inner.subscribe(SwitchInnerObserver(sink: self, id: id, subscription: subscription)))
        case .error(let error):
            stop(with: error)
        case .completed:
            let mustDrain = lock.withLock { () -> Bool in
                if stopped { return false }
                outerStopped = true
                if hasLatest { return false }
                stopped = true
                return enqueueLocked(.completed)
            }
            outerSubscription.dispose()
            if mustDrain { drain() }
        }
    }

    private func stop(with error: Swift.Error) {
        let mustDrain = lock.withLock { () -> Bool in
            if stopped { return false }
            stopped = true
            return enqueueLocked(.error(error))
        }
        if mustDrain { drain() }
    }

    fileprivate func innerOn(_ event: Event<Observer.Element>, id: UInt64) {
        let mustDrain = lock.withLock { () -> Bool in
            if stopped || id != latest { return false }
            switch event {
            case .next(let element):
                return enqueueLocked(.value(element))
            case .error(let error):
                stopped = true
                return enqueueLocked(.error(error))
            case .completed:
                hasLatest = false
                if !outerStopped { return false }
                stopped = true
                return enqueueLocked(.completed)
            }
        }
        if mustDrain { drain() }
    }
}

private struct SwitchInnerObserver<SourceElement, Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element
    let sink: SwitchSink<SourceElement, Observer>
    let id: UInt64
    let subscription: Disposable

    func on(_ event: Event<Element>) {
        if event.isStopEvent { subscription.dispose() }
        sink.innerOn(event, id: id)
    }
}
