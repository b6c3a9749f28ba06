/// The observable machinery behind the trait operators. Each function returns a plain
/// ``Observable`` that the trait types wrap; none of them is public API.
enum TraitOperators {
    /// Delivers `source`'s events on `scheduler`, one at a time and in order.
    static func observe<Element>(_ source: Observable<Element>, on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable.create { observer in
            let queue = TraitObserveOnQueue(observer: observer, scheduler: scheduler)
            let subscription = source.subscribe(queue)
            return Disposables.create(subscription, queue)
        }
    }

    /// Subscribes to `source` from an action scheduled on `scheduler`.
    static func subscribe<Element>(_ source: Observable<Element>, on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable.create { observer in
            let subscription = SingleAssignmentDisposable()
            let scheduled = scheduler.schedule(()) { _ in
                subscription.setDisposable(source.subscribe(observer))
                return Disposables.create()
            }
            return Disposables.create(scheduled, subscription)
        }
    }

    /// On an error, continues with the sequence that `handler` makes.
    static func catchError<Element>(_ source: Observable<Element>, handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        Observable.create { observer in
            let serial = SerialDisposable()
            let first = SingleAssignmentDisposable()
            serial.disposable = first
            first.setDisposable(source.subscribe(AnyObserver { event in
                switch event {
                case .next, .completed:
                    observer.on(event)
                case .error(let error):
                    do {
                        let next = try handler(error)
                        serial.disposable = next.subscribe(observer)
                    } catch {
                        observer.on(.error(error))
                    }
                }
            }))
            return serial
        }
    }

    /// Resubscribes to `source` after each error, `maxAttempts` subscriptions in all (or forever).
    static func retry<Element>(_ source: Observable<Element>, maxAttempts: Int?) -> Observable<Element> {
        Observable.create { observer in
            let retrier = TraitRetrier(source: source, observer: observer, maxAttempts: maxAttempts)
            retrier.subscribeNext()
            return retrier
        }
    }

    /// Calls side-effect closures around the events and the life of each subscription.
    static func perform<Element>(
        on source: Observable<Element>,
        onNext: ((Element) throws -> Void)?,
        afterNext: ((Element) throws -> Void)?,
        onError: ((Swift.Error) throws -> Void)?,
        afterError: ((Swift.Error) throws -> Void)?,
        onCompleted: (() throws -> Void)?,
        afterCompleted: (() throws -> Void)?,
        onSubscribe: (() -> Void)?,
        onSubscribed: (() -> Void)?,
        onDispose: (() -> Void)?
    ) -> Observable<Element> {
        Observable.create { observer in
            onSubscribe?()
            let subscription = source.subscribe(AnyObserver { event in
                do {
                    switch event {
                    case .next(let element): try onNext?(element)
                    case .error(let error): try onError?(error)
                    case .completed: try onCompleted?()
                    }
                } catch {
                    observer.on(.error(error))
                    return
                }
                observer.on(event)
                do {
                    switch event {
                    case .next(let element): try afterNext?(element)
                    case .error(let error): try afterError?(error)
                    case .completed: try afterCompleted?()
                    }
                } catch {
                    observer.on(.error(error))
                }
            })
            onSubscribed?()
            return Disposables.create {
                subscription.dispose()
                onDispose?()
            }
        }
    }

    /// Runs `first` to completion, then continues with `second`; an error of `first` ends it.
    static func concat<Element>(_ first: Observable<Never>, _ second: Observable<Element>) -> Observable<Element> {
        Observable.create { observer in
            let serial = SerialDisposable()
            let firstSubscription = SingleAssignmentDisposable()
            serial.disposable = firstSubscription
            firstSubscription.setDisposable(first.subscribe(AnyObserver { event in
                switch event {
                case .next:
                    break
                case .error(let error):
                    observer.on(.error(error))
                case .completed:
                    serial.disposable = second.subscribe(observer)
                }
            }))
            return serial
        }
    }

    /// Waits for one element from every source, then sends `resultSelector` of them and
    /// completes. Completes empty as soon as a source completes without an element.
    static func zip<Result>(_ sources: [Observable<Any>], resultSelector: @escaping ([Any]) throws -> Result) -> Observable<Result> {
        Observable.create { observer in
            let state = TraitZipState(count: sources.count)
            func emit(_ values: [Any]) {
                do {
                    observer.onNext(try resultSelector(values))
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            if sources.isEmpty {
                emit([])
                return Disposables.create()
            }
            let group = CompositeDisposable()
            for (index, source) in sources.enumerated() {
                let subscription = SingleAssignmentDisposable()
                _ = group.insert(subscription)
                subscription.setDisposable(source.subscribe(AnyObserver { event in
                    switch event {
                    case .next(let value):
                        if let values = state.store(value, at: index) { emit(values) }
                    case .error(let error):
                        observer.onError(error)
                    case .completed:
                        if !state.hasValue(at: index) { observer.onCompleted() }
                    }
                }))
            }
            return group
        }
    }
}

/// The queue of `observe(on:)` for traits: events are queued under a lock and drained by one
/// scheduled action at a time, so the observer sees them in order and never concurrently.
final class TraitObserveOnQueue<Element>: ObserverType, Disposable, @unchecked Sendable {
    private let observer: AnyObserver<Element>
    private let scheduler: ImmediateSchedulerType
    private let lock = SpinLock()
    private var queue: [Event<Element>] = []
    private var scheduled = false
    private var disposed = false
    private let scheduledWork = SerialDisposable()

    init(observer: AnyObserver<Element>, scheduler: ImmediateSchedulerType) {
        self.observer = observer
        self.scheduler = scheduler
    }

    func on(_ event: Event<Element>) {
        let start = lock.withLock { () -> Bool in
            if disposed { return false }
            queue.append(event)
            if scheduled { return false }
            scheduled = true
            return true
        }
        guard start else { return }
        scheduledWork.disposable = scheduler.schedule(()) { _ in
            self.drain()
            return Disposables.create()
        }
    }

    private func drain() {
        while true {
            let next = lock.withLock { () -> Event<Element>? in
                if disposed || queue.isEmpty {
                    scheduled = false
                    return nil
                }
                return queue.removeFirst()
            }
            guard let next else { return }
            observer.on(next)
        }
    }

    func dispose() {
        lock.withLock {
            disposed = true
            queue = []
        }
        scheduledWork.dispose()
    }
}

/// The state of one `retry` subscription.
final class TraitRetrier<Element>: Disposable, @unchecked Sendable {
    private let source: Observable<Element>
    private let observer: AnyObserver<Element>
    private let maxAttempts: Int?
    private let serial = SerialDisposable()
    private let lock = SpinLock()
    private var attempts = 0

    init(source: Observable<Element>, observer: AnyObserver<Element>, maxAttempts: Int?) {
        self.source = source
        self.observer = observer
        self.maxAttempts = maxAttempts
    }

    func subscribeNext() {
        if serial.isDisposed { return }
        lock.withLock { attempts += 1 }
        let subscription = SingleAssignmentDisposable()
        serial.disposable = subscription
        subscription.setDisposable(source.subscribe(AnyObserver { [self] event in
            switch event {
            case .next, .completed:
                observer.on(event)
            case .error(let error):
                let giveUp = lock.withLock { maxAttempts.map { attempts >= $0 } ?? false }
                if giveUp {
                    observer.on(.error(error))
                } else {
                    // Trampolined, so a source that fails synchronously does not grow the stack.
                    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                        self.subscribeNext()
                        return Disposables.create()
                    }
                }
            }
        }))
    }

    func dispose() { serial.dispose() }
}

/// The collected values of one `zip` subscription over traits.
final class TraitZipState: @unchecked Sendable {
    private let lock = SpinLock()
    private var values: [Any?]
    private var remaining: Int

    init(count: Int) {
        values = Array(repeating: nil, count: count)
        remaining = count
    }

    /// Stores `value`; returns all values once every source has sent one.
    func store(_ value: Any, at index: Int) -> [Any]? {
        lock.withLock {
            if values[index] == nil { remaining -= 1 }
            values[index] = value
            return remaining == 0 ? values.map { $0! } : nil
        }
    }

    func hasValue(at index: Int) -> Bool { lock.withLock { values[index] != nil } }
}

extension TraitOperators {
    /// Sends `element`, then the events of `source`.
    static func startWith<Element>(_ source: Observable<Element>, _ element: Element) -> Observable<Element> {
        Observable.create { observer in
            observer.onNext(element)
            return source.subscribe(observer)
        }
    }
}
