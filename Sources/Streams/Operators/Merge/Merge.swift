extension ObservableType {
    /// Merges the elements of several sequences into one, as they arrive.
    ///
    ///     a: --1-----3--|
    ///     b: ----2-----4--|
    ///     merge(a, b)
    ///        --1-2---3-4--|
    ///
    /// Completes when every source has completed; fails as soon as one source fails.
    ///
    /// - Parameter sources: The sequences to merge.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        mergeArray(sources)
    }

    /// Merges the elements of an array of sequences.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        mergeArray(sources)
    }

    /// Merges the elements of a collection of sequences.
    public static func merge<Sources: Collection>(_ sources: Sources) -> Observable<Element> where Sources.Element == Observable<Element> {
        mergeArray(Array(sources))
    }
}

extension ObservableType {
    /// `merge` over an array: one subscription per source, made in order at subscription time.
    static func mergeArray(_ sources: [Observable<Element>]) -> Observable<Element> {
        Merge(source: Observable.from(sources, scheduler: ImmediateScheduler.instance), maxConcurrent: .max) { $0 }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Flattens a sequence of sequences by merging the inner sequences as they arrive.
    ///
    ///     outer: --a-b--------|
    ///     a:       1---3---5|
    ///     b:         -2---4|
    ///     merge()
    ///            --1--23--45--|
    ///
    /// Completes when the outer sequence and every inner sequence have completed.
    public func merge() -> Observable<Element.Element> {
        Merge(source: asObservable(), maxConcurrent: .max) { $0 }
    }

    /// Flattens a sequence of sequences, subscribing to at most `maxConcurrent` inner
    /// sequences at a time; later ones wait, in order, for a running one to complete.
    ///
    /// - Parameter maxConcurrent: The largest number of inner subscriptions at once (≥ 1).
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        precondition(maxConcurrent > 0, "maxConcurrent must be positive")
        return Merge(source: asObservable(), maxConcurrent: maxConcurrent) { $0 }
    }
}

/// The engine of `merge`, `flatMap` and `concatMap`: subscribes to the inner sequence that a
/// selector makes for each outer element, up to `maxConcurrent` at once.
///
/// The selector returns the caller's own sequence type (`Inner`), turned into an `Observable`
/// per element: so `flatMap` keeps the user's closure as it is, where wrapping it in a closure
/// that calls `asObservable()` cost an allocation per operator.
final class Merge<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element>, @unchecked Sendable {
    typealias Result = Inner.Element
    typealias Selector = (SourceElement) throws -> Inner

    private let source: Observable<SourceElement>
    let maxConcurrent: Int
    let selector: Selector

    init(source: Observable<SourceElement>, maxConcurrent: Int, selector: @escaping Selector) {
        self.source = source
        self.maxConcurrent = maxConcurrent
        self.selector = selector
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = MergeSink(parent: self, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

final class MergeSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: SerializingSink<Observer>, ObserverType, @unchecked Sendable where Inner.Element == Observer.Element {
    typealias Result = Observer.Element
    typealias Parent = Merge<SourceElement, Inner>

    private let parent: Parent
    /// Which inners run and wait, and when the whole completes; read and changed under `lock`.
    @exclusivity(unchecked) private var state: MergeState<Observable<Result>>
    /// The subscriptions of the running inners, made with the first one that is subscribed (an
    /// inner `just` needs none); under `lock`. The outer subscription is the sink's upstream.
    @exclusivity(unchecked) private var inners: CompositeDisposable?
    /// Set under `lock` when the sink is disposed: inners subscribed later are disposed at once.
    @exclusivity(unchecked) private var innersDisposed = false
    #if DEBUG
    /// How many inner sequences were subscribed to, under `lock`: those run by a shortcut
    /// (``InnerShortcut``) are not, which tests check.
    @exclusivity(unchecked) private(set) var subscribedInnerCount = 0
    #endif

    init(parent: Parent, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        state = MergeState(maxConcurrent: parent.maxConcurrent)
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            send(.error(error))
        case .completed:
            let complete = lock.withLock { state.outerCompleted() }
            if complete {
                send(.completed)
            } else {
                disposeUpstream()
            }
        }
    }

    /// An outer element: makes its inner sequence and runs it, or queues it at the concurrency
    /// limit. (What `on(.next(element))` does, without building and taking apart an `Event`.)
    func onNext(_ element: SourceElement) {
        let inner: Observable<Result>
        do {
            inner = try parent.selector(element).asObservable()
        } catch {
            fail(error)
            return
        }
        switch inner.innerShortcut {
        case .subscribe:
            if lock.withLock({ !isTerminatedLocked && state.innerArrived(inner) }) { subscribeInner(inner) }
        case .element:
            let element = inner.shortcutElement
            // An inner `just` within the concurrency limit sends its element and completes
            // at once: deliver the element, inside the trampoline as its subscription would,
            // with no inner subscription to make and remove. At the limit it waits its turn
            // like any other inner (decided in the same step).
            CurrentThreadScheduler.runInTrampoline { _, _ in
                sendNext(element) { state.immediateInnerArrived(inner) }
            }
        case .completion:
            // An inner `empty` within the limit changes nothing; at the limit it waits its
            // turn (its completion may be what starts the next inner).
            if parent.maxConcurrent == .max { return }
            lock.withLock {
                if !isTerminatedLocked { _ = state.immediateInnerArrived(inner) }
            }
        case .steps:
            if lock.withLock({ !isTerminatedLocked && state.innerArrived(inner) }) { startInner(inner) }
        }
    }

    /// Sends `error`, which the selector threw: kept out of line, so that the element path does
    /// not look up the type of an `Event`.
    @inline(never)
    private func fail(_ error: Swift.Error) {
        send(.error(error))
    }

    /// Runs `first`, an inner already counted as running, and then, while the inners it runs
    /// end at once, the inners that were waiting for them, in order. An inner of the library's
    /// synchronous factories (``InnerShortcut``) is delivered here, as a subscription would
    /// deliver it, and ends at once; any other is subscribed, and its completion continues.
    private func startInner(_ first: Observable<Result>) {
        let firstShortcut = first.innerShortcut
        // Any other sequence is subscribed as it always was, outside a trampoline of ours.
        if firstShortcut == .subscribe {
            subscribeInner(first)
            return
        }
        CurrentThreadScheduler.runInTrampoline { trampoline, started in
            var inner = first
            var shortcut = firstShortcut
            while true {
                switch shortcut {
                case .subscribe:
                    subscribeInner(inner)
                    return
                case .element:
                    sendNext(inner.shortcutElement)
                case .completion:
                    break
                case .steps:
                    // Steps wait behind the work of a trampoline that runs something else.
                    guard started else {
                        subscribeInner(inner)
                        return
                    }
                    let completed = inner.deliverSteps(
                        in: trampoline,
                        next: { element in
                            sendNext(element)
                            return !isDisposed
                        },
                        rest: subscribeInner
                    )
                    if !completed { return }
                }
                switch lock.withLock({ state.innerCompleted() }) {
                case .start(let next):
                    inner = next
                    shortcut = next.innerShortcut
                case .complete:
                    send(.completed)
                    return
                case .none:
                    return
                }
            }
        }
    }

    private func subscribeInner(_ inner: Observable<Result>) {
        let group = lock.withLock { () -> CompositeDisposable? in
            if innersDisposed { return nil }
            #if DEBUG
            subscribedInnerCount += 1
            #endif
            if let inners { return inners }
            let created = CompositeDisposable()
            inners = created
            return created
        }
        let subscription = SingleAssignmentDisposable()
        guard let key = group?.insert(subscription) else { return }
        subscription.setDisposable(inner.subscribe(MergeInnerObserver(parent: self, key: key)))
    }

    fileprivate func innerCompleted(_ key: CompositeDisposable.DisposeKey) {
        lock.withLock { inners }?.remove(for: key)
        switch lock.withLock({ state.innerCompleted() }) {
        case .start(let next): startInner(next)
        case .complete: send(.completed)
        case .none: break
        }
    }

    override func dispose() {
        super.dispose()
        let group = lock.withLock { () -> CompositeDisposable? in
            innersDisposed = true
            return inners
        }
        group?.dispose()
    }
}

private struct MergeInnerObserver<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: ObserverType where Inner.Element == Observer.Element {
    typealias Element = Observer.Element
    let parent: MergeSink<SourceElement, Inner, Observer>
    let key: CompositeDisposable.DisposeKey

    func on(_ event: Event<Element>) {
        switch event {
        case .next, .error:
            parent.send(event)
        case .completed:
            parent.innerCompleted(key)
        }
    }

    func onNext(_ element: Element) {
        parent.sendNext(element)
    }
}
