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
        Switch(source: asObservable(), selector: selector)
    }
}

/// The engine of `flatMapLatest` and `switchLatest`: one inner subscription at a time, each new
/// outer element replacing it; events of replaced inners are ignored.
///
/// The selector returns the caller's own sequence type (`Inner`), turned into an `Observable`
/// per element, so `flatMapLatest` keeps the user's closure without wrapping it (as `Merge`).
final class Switch<SourceElement, Inner: ObservableConvertibleType>: SinkProducer<Inner.Element>, @unchecked Sendable {
    typealias Result = Inner.Element
    typealias Selector = (SourceElement) throws -> Inner

    private let source: Observable<SourceElement>
    private let selector: Selector

    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = SwitchSink<SourceElement, Inner, Observer>(selector: selector, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

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

/// The rules of `flatMapLatest` and `switchLatest` as a value: each inner gets an id, only the
/// latest one's events pass, and the whole completes once the outer sequence and the latest
/// inner have. The sink keeps one under its lock and acts on what each call returns after
/// releasing it; tests drive it with no thread (`SwitchStateTests`).
///
///     innerArrived → 1   innerArrived → 2   isLatest(1) → false
///     outerCompleted() → false (inner 2 runs)   innerEnded(2, failed: false) → complete
struct SwitchState {
    /// What the end of an inner leads to.
    enum InnerEnd: Equatable {
        /// The inner was replaced: its end changes nothing.
        case ignore
        /// The latest inner failed: the whole fails with its error.
        case fail
        /// The latest inner completed after the outer did: the whole completes.
        case complete
        /// The latest inner completed; the outer still runs.
        case `continue`
    }

    /// The id of the latest inner (0 before the first).
    private(set) var latest: UInt64 = 0
    /// Whether the latest inner is still running.
    private(set) var hasLatest = false
    /// Whether the outer sequence completed.
    private(set) var outerStopped = false

    /// A new inner replaces the latest: its id. `running` is `false` for an inner that sends its
    /// one element and completes at once (`just`), which is never waited for.
    @inline(__always)
    mutating func innerArrived(running: Bool) -> UInt64 {
        latest &+= 1
        hasLatest = running
        return latest
    }

    /// Whether inner `id` is the latest (only its elements pass).
    @inline(__always)
    func isLatest(_ id: UInt64) -> Bool { id == latest }

    /// Inner `id` ended, with an error or not.
    @inline(__always)
    mutating func innerEnded(_ id: UInt64, failed: Bool) -> InnerEnd {
        guard id == latest else { return .ignore }
        if failed { return .fail }
        hasLatest = false
        return outerStopped ? .complete : .continue
    }

    /// The outer sequence completed: `true` when no inner runs, so the whole completes now.
    @inline(__always)
    mutating func outerCompleted() -> Bool {
        outerStopped = true
        return !hasLatest
    }
}
