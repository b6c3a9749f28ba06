extension ObservableType {
    /// Resubscribes to the source every time it fails, without limit.
    ///
    ///     source (cold): --1--x
    ///     retry()
    ///                    --1----1----1…
    ///
    /// Resubscription goes through the current thread's trampoline, so a source that fails
    /// synchronously many times never grows the stack.
    ///
    /// - Returns: The source's elements across every attempt, until one completes.
    public func retry() -> Observable<Element> {
        Retry(source: asObservable(), maxAttemptCount: nil)
    }

    /// Subscribes to the source up to `maxAttemptCount` times in all, resubscribing when it
    /// fails; the error of the last attempt is passed on.
    ///
    ///     source: --1--#
    ///     retry(2)
    ///             --1----1--#
    ///
    /// As in RxSwift, `retry(0)` completes at once without subscribing.
    ///
    /// - Precondition: `maxAttemptCount` is not negative.
    /// - Parameter maxAttemptCount: The largest number of subscriptions, the first included.
    /// - Returns: The source's elements across the attempts.
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        precondition(maxAttemptCount >= 0, "maxAttemptCount can't be negative")
        return Retry(source: asObservable(), maxAttemptCount: maxAttemptCount)
    }
}

final class Retry<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let maxAttemptCount: Int?

    init(source: Observable<Element>, maxAttemptCount: Int?) {
        self.source = source
        self.maxAttemptCount = maxAttemptCount
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = RetrySink(source: source, maxAttemptCount: maxAttemptCount, observer: observer, handle: handle)
        let subscription = sink.run()
        sink.setUpstream(subscription)
        return sink
    }
}

private final class RetrySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let source: Observable<Element>
    /// Subscriptions still allowed; `nil` for no limit.
    private var attemptsLeft: Int?
    private let attempt = SerialDisposable()

    init(source: Observable<Element>, maxAttemptCount: Int?, observer: Observer, handle: SinkDisposer?) {
        self.source = source
        self.attemptsLeft = maxAttemptCount
        super.init(observer: observer, handle: handle)
    }

    func run() -> Disposable {
        if attemptsLeft == 0 {
            forwardOn(.completed)
            dispose()
            return Disposables.create()
        }
        subscribeAttempt()
        return attempt
    }

    private func subscribeAttempt() {
        if isDisposed { return }
        if let left = attemptsLeft { attemptsLeft = left - 1 }
        let subscription = SingleAssignmentDisposable()
        attempt.disposable = subscription
        subscription.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error:
            if attemptsLeft == 0 {
                forwardOn(event)
                dispose()
                return
            }
            // Through the trampoline: a synchronous failure queues the next attempt instead
            // of subscribing inside the failing one's call stack.
            attempt.disposable = Disposables.create()
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                self.subscribeAttempt()
                return Disposables.create()
            }
        }
    }
}
