final class SwitchSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: SerializingSink<Observer>, ObserverType, @unchecked Sendable where Inner.Element == Observer.Element {
    typealias Selector = (SourceElement) throws -> Inner

    private let selector: Selector
    /// Which inner is the latest and whether the whole completes; read and changed under `lock`.
    @exclusivity(unchecked) private var state = SwitchState()
    /// The subscription of the latest inner, under `lock`: replacing it disposes the previous
    /// one. The outer subscription is the sink's upstream.
    @exclusivity(unchecked) private var latestInner: Disposable?
    /// Set under `lock` when the sink is disposed: an inner subscribed later is disposed at once.
    @exclusivity(unchecked) private var innersDisposed = false
    #if DEBUG
    /// How many inner sequences were subscribed to, under `lock`: those run by a shortcut
    /// (``InnerShortcut``) are not, which tests check.
    @exclusivity(unchecked) private(set) var subscribedInnerCount = 0
    #endif

    init(selector: @escaping Selector, observer: Observer, handle: SinkDisposer?) {
        self.selector = selector
        super.init(observer: observer, handle: handle)
    }

    /// Makes `subscription` the latest inner's, disposing the previous one; disposes
    /// `subscription` at once if the sink was disposed. `nil` only disposes the previous one.
    private func replaceLatestInner(with subscription: Disposable?) {
        let (previous, disposeNew) = lock.withLock { () -> (Disposable?, Bool) in
            if innersDisposed { return (nil, true) }
            let previous = latestInner.take()
            latestInner = subscription
            return (previous, false)
        }
        previous?.dispose()
        if disposeNew { subscription?.dispose() }
    }

    override func dispose() {
        super.dispose()
        let latest = lock.withLock { () -> Disposable? in
            innersDisposed = true
            return latestInner.take()
        }
        latest?.dispose()
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            stop(with: error)
        case .completed:
            let claimed = lock.withLock { state.outerCompleted() && terminateLocked() }
            disposeUpstream()
            if claimed { sendClaimedTerminal(.completed) }
        }
    }

    /// An outer element: makes its inner sequence, which replaces the latest one. (What
    /// `on(.next(element))` does, without building and taking apart an `Event`.)
    func onNext(_ element: SourceElement) {
        let inner: Observable<Observer.Element>
        do {
            inner = try selector(element).asObservable()
        } catch {
            stop(with: error)
            return
        }
        switch inner.innerShortcut {
        case .subscribe:
            let id = lock.withLock { () -> UInt64? in
                if isTerminatedLocked { return nil }
                return state.innerArrived(running: true)
            }
            guard let id else { return }
            subscribeInner(inner, id: id)
        case .element:
            let element = inner.shortcutElement
            CurrentThreadScheduler.runInTrampoline { _, _ in innerJust(element) }
        case .completion:
            // An inner `empty` replaces the latest inner and completes at once.
            let replacesRunningInner = lock.withLock { () -> Bool in
                if isTerminatedLocked { return false }
                let running = state.hasLatest
                _ = state.innerArrived(running: false)
                return running
            }
            if replacesRunningInner { replaceLatestInner(with: nil) }
        case .steps:
            let id = lock.withLock { () -> UInt64? in
                if isTerminatedLocked { return nil }
                return state.innerArrived(running: true)
            }
            guard let id else { return }
            replaceLatestInner(with: nil)
            CurrentThreadScheduler.runInTrampoline { trampoline, started in
                // Steps wait behind the work of a trampoline that runs something else.
                guard started else {
                    subscribeInner(inner, id: id)
                    return
                }
                let completed = inner.deliverSteps(
                    in: trampoline,
                    next: { element in
                        innerNext(element, id: id)
                        return !isDisposed && lock.withLock { state.isLatest(id) }
                    },
                    rest: { subscribeInner($0, id: id) }
                )
                if completed { innerTerminal(.completed, id: id) }
            }
        }
    }

    /// An inner `just` replaces the latest inner, sends its element and completes at once: no
    /// inner subscription to make. With no inner running (the common case: the previous one
    /// completed, or was a `just` too) that is one lock step.
    private func innerJust(_ element: Observer.Element) {
        var replacesRunningInner = false
        sendNext(element) {
            if state.hasLatest {
                replacesRunningInner = true
                return false
            }
            _ = state.innerArrived(running: false)
            return true
        }
        guard replacesRunningInner else { return }
        // A running inner is disposed before the element is sent, as for any new inner.
        let id = lock.withLock { () -> UInt64? in
            if isTerminatedLocked { return nil }
            return state.innerArrived(running: false)
        }
        guard let id else { return }
        replaceLatestInner(with: nil)
        sendNext(element) { state.isLatest(id) }
    }

    /// Subscribes to `inner`, the latest inner with `id`, disposing the previous inner's
    /// subscription first.
    private func subscribeInner(_ inner: Observable<Observer.Element>, id: UInt64) {
        #if DEBUG
        lock.withLock { subscribedInnerCount += 1 }
        #endif
        let subscription = SingleAssignmentDisposable()
        replaceLatestInner(with: subscription)
        subscription.setDisposable(inner.subscribe(SwitchInnerObserver(sink: self, id: id, subscription: subscription)))
    }

    /// Fails with `error` unless the sequence has ended: kept out of line, so that the element
    /// path does not look up the type of an `Event`.
    @inline(never)
    private func stop(with error: Swift.Error) {
        if lock.withLock({ terminateLocked() }) { sendClaimedTerminal(.error(error)) }
    }

    /// An element of inner `id`: sent only while that inner is the latest, decided in the same
    /// step that queues it, so an element of a replaced inner never follows one of its successor.
    @inline(__always)
    fileprivate func innerNext(_ element: Observer.Element, id: UInt64) {
        sendNext(element) { state.isLatest(id) }
    }

    fileprivate func innerTerminal(_ event: Event<Observer.Element>, id: UInt64) {
        let claimed = lock.withLock { () -> Bool in
            switch state.innerEnded(id, failed: event.error != nil) {
            case .ignore: return false
            case .fail, .complete: return terminateLocked()
            case .continue: return false
            }
        }
        if claimed { sendClaimedTerminal(event) }
    }
}

private struct SwitchInnerObserver<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: ObserverType where Inner.Element == Observer.Element {
    typealias Element = Observer.Element
    let sink: SwitchSink<SourceElement, Inner, Observer>
    let id: UInt64
    let subscription: Disposable

    func onNext(_ element: Element) {
        sink.innerNext(element, id: id)
    }

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
