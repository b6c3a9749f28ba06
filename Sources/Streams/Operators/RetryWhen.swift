extension ObservableType {
    /// Resubscribes to the source after a failure when the trigger sequence that
    /// `notificationHandler` builds from the errors sends an element.
    ///
    ///     source: --1--#
    ///     retry(when: { errors in errors.take(2).delay(.seconds(3), scheduler: scheduler) })
    ///             --1-------1-------1--|
    ///
    /// `notificationHandler` is called once per subscription with the sequence of the source's
    /// errors. After each failure the result waits for the trigger: an element resubscribes,
    /// an error ends the result with that error, and completion completes it. An error that is
    /// not a `Failure` ends the result at once.
    ///
    /// - Parameter notificationHandler: Turns the errors into the trigger sequence.
    /// - Returns: The source's elements across the attempts.
    public func retry<TriggerObservable: ObservableType, Failure: Swift.Error>(
        when notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhen(source: asObservable(), notificationHandler: notificationHandler)
    }

    /// Resubscribes to the source after a failure when the trigger sequence that
    /// `notificationHandler` builds from the errors sends an element.
    ///
    ///     source: --1--#
    ///     retry(when: { errors in errors.take(1) })
    ///             --1----1--|
    ///
    /// (The second failure finds the trigger completed, so the result completes.)
    ///
    /// After each failure: a trigger element resubscribes, a trigger error ends the result
    /// with that error, and trigger completion completes it.
    ///
    /// - Parameter notificationHandler: Turns the sequence of errors into the trigger sequence.
    /// - Returns: The source's elements across the attempts.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhen(source: asObservable(), notificationHandler: notificationHandler)
    }
}

final class RetryWhen<Element, TriggerObservable: ObservableType, Failure: Swift.Error>: Producer<Element>, @unchecked Sendable {
    typealias Handler = (Observable<Failure>) -> TriggerObservable

    let source: Observable<Element>
    let notificationHandler: Handler

    init(source: Observable<Element>, notificationHandler: @escaping Handler) {
        self.source = source
        self.notificationHandler = notificationHandler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = RetryWhenSink<Observer, TriggerObservable.Element, Failure>(source: source, observer: observer, handle: handle)
        let subscription = sink.run(trigger: notificationHandler(sink.errors.asObservable()).asObservable())
        sink.setUpstream(subscription)
        return sink
    }
}

final class RetryWhenSink<Observer: ObserverType, TriggerElement, Failure: Swift.Error>: SerializingSink<Observer>, @unchecked Sendable {
    typealias Element = Observer.Element

    private let source: Observable<Element>
    /// The source's errors, as the notification handler sees them.
    let errors = PublishSubject<Failure>()
    /// The trigger's events, listened to only while an attempt is waiting to be retried.
    let notifier = PublishSubject<TriggerElement>()
    private let attempt = SerialDisposable()

    init(source: Observable<Element>, observer: Observer, handle: SinkDisposer?) {
        self.source = source
        super.init(observer: observer, handle: handle)
    }

    func run(trigger: Observable<TriggerElement>) -> Disposable {
        let triggerSubscription = trigger.subscribe(notifier)
        subscribeAttempt()
        return Disposables.create(attempt, triggerSubscription)
    }

    fileprivate func subscribeAttempt() {
        if isDisposed { return }
        let iteration = RetryWhenIteration(parent: self)
        attempt.disposable = iteration
        iteration.start(source)
    }

    fileprivate func scheduleAttempt() {
        // Through the trampoline, so that retrying a synchronous failure never nests.
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            self.subscribeAttempt()
            return Disposables.create()
        }
    }
}

/// One subscription to the source, and, after it fails, the wait for the trigger.
final class RetryWhenIteration<Observer: ObserverType, TriggerElement, Failure: Swift.Error>: ObserverType, Disposable, @unchecked Sendable {
    typealias Element = Observer.Element
    typealias Parent = RetryWhenSink<Observer, TriggerElement, Failure>

    private let parent: Parent
    private let sourceSubscription = SingleAssignmentDisposable()
    private let triggerSubscription = SingleAssignmentDisposable()
    private let retried = AtomicFlag()

    init(parent: Parent) { self.parent = parent }

    func start(_ source: Observable<Element>) {
        sourceSubscription.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next, .completed:
            parent.send(event)
        case .error(let error):
            guard let failure = error as? Failure else {
                parent.send(event)
                return
            }
            sourceSubscription.dispose()
            triggerSubscription.setDisposable(parent.notifier.subscribe(RetryTriggerObserver(iteration: self)))
            parent.errors.on(.next(failure))
        }
    }

    fileprivate func triggerOn(_ event: Event<TriggerElement>) {
        switch event {
        case .next:
            if retried.setOnce() { parent.scheduleAttempt() }
        case .error(let error):
            parent.send(.error(error))
        case .completed:
            parent.send(.completed)
        }
    }

    func dispose() {
        sourceSubscription.dispose()
        triggerSubscription.dispose()
    }
}

private struct RetryTriggerObserver<Observer: ObserverType, TriggerElement, Failure: Swift.Error>: ObserverType {
    let iteration: RetryWhenIteration<Observer, TriggerElement, Failure>
    func on(_ event: Event<TriggerElement>) { iteration.triggerOn(event) }
}
