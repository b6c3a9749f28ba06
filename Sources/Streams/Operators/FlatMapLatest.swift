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

final class SwitchSink<SourceElement, Observer: ObserverType>: SerializingSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Selector = (SourceElement) throws -> Observable<Observer.Element>

    private let selector: Selector
    private let outerSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()
    // Under `lock`: which inner is the latest, whether it is still running, whether the outer
    // sequence has completed.
    private var latest: UInt64 = 0
    private var hasLatest = false
    private var outerStopped = false

    init(selector: @escaping Selector, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
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
            if let element = inner.immediateElement {
                // An inner `just` replaces the running inner, sends its element and completes
                // at once: no inner subscription to make.
                let id = lock.withLock { () -> UInt64? in
                    if isTerminatedLocked { return nil }
                    latest &+= 1
                    hasLatest = false
                    return latest
                }
                guard let id else { return }
                innerSubscription.disposable = Disposables.create()
                sendNext(element) { id == latest }
                return
            }
            let id = lock.withLock { () -> UInt64? in
                if isTerminatedLocked { return nil }
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
            let claimed = lock.withLock { () -> Bool in
                outerStopped = true
                return !hasLatest && terminateLocked()
            }
            outerSubscription.dispose()
            if claimed { sendClaimedTerminal(.completed) }
        }
    }

    private func stop(with error: Swift.Error) {
        if lock.withLock({ terminateLocked() }) { sendClaimedTerminal(.error(error)) }
    }

    /// An element of inner `id`: sent only while that inner is the latest, decided in the same
    /// step that queues it, so an element of a replaced inner never follows one of its successor.
    @inline(__always)
    fileprivate func innerNext(_ element: Observer.Element, id: UInt64) {
        sendNext(element) { id == latest }
    }

    fileprivate func innerTerminal(_ event: Event<Observer.Element>, id: UInt64) {
        let claimed = lock.withLock { () -> Bool in
            if id != latest { return false }
            if case .error = event { return terminateLocked() }
            hasLatest = false
            return outerStopped && terminateLocked()
        }
        if claimed { sendClaimedTerminal(event) }
    }
}

private struct SwitchInnerObserver<SourceElement, Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element
    let sink: SwitchSink<SourceElement, Observer>
    let id: UInt64
    let subscription: Disposable

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            sink.innerNext(element, id: id)
        case .error, .completed:
            subscription.dispose()
            sink.innerTerminal(event, id: id)
        }
    }
}
