import Locking
extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Subscribes and waits for the single's element.
    ///
    ///     let pizza = try await api.pizza(id: 1).value
    ///
    /// Cancelling the waiting task disposes the subscription and throws `CancellationError`
    /// (when the task is cancelled before it starts waiting, a sequence that ends as soon as it
    /// is subscribed still gives its outcome, as in RxSwift).
    ///
    /// - Throws: The single's error, or `CancellationError`.
    public var value: Element {
        get async throws {
            try await awaitOutcome(primitiveSequence.asObservable()) { element, _ in
                guard let element else { throw StreamsError.noElements }
                return element
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Subscribes and waits for the maybe's element, or `nil` when it completes empty.
    ///
    ///     if let cached = try await cache.pizza(id: 1).value { … }
    ///
    /// Cancelling the waiting task disposes the subscription and throws `CancellationError`
    /// (when the task is cancelled before it starts waiting, a sequence that ends as soon as it
    /// is subscribed still gives its outcome, as in RxSwift).
    ///
    /// - Throws: The maybe's error, or `CancellationError`.
    public var value: Element? {
        get async throws {
            try await awaitOutcome(primitiveSequence.asObservable()) { element, _ in element }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Subscribes and waits for the completable to complete.
    ///
    ///     try await store.save(pizza).value
    ///
    /// Cancelling the waiting task disposes the subscription and throws `CancellationError`
    /// (when the task is cancelled before it starts waiting, a sequence that ends as soon as it
    /// is subscribed still gives its outcome, as in RxSwift).
    ///
    /// - Throws: The completable's error, or `CancellationError`.
    public var value: Void {
        get async throws {
            try await awaitOutcome(primitiveSequence.asObservable()) { _, _ in () }
        }
    }
}

/// Subscribes to `source` and suspends until it ends; `finish` turns the first element (if
/// any) into the result. Cancellation disposes the subscription and throws `CancellationError`.
private func awaitOutcome<Element, Result>(
    _ source: Observable<Element>,
    finish: @escaping (Element?, Bool) throws -> Result
) async throws -> Result {
    let waiter = OutcomeWaiter<Result>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, Swift.Error>) in
            waiter.start(continuation) {
                var first: Element?
                return source.subscribe(AnyObserver { event in
                    switch event {
                    case .next(let element):
                        if first == nil { first = element }
                    case .error(let error):
                        waiter.resume(with: .failure(error))
                    case .completed:
                        waiter.resume(with: Swift.Result { try finish(first, true) })
                    }
                })
            }
        }
    } onCancel: {
        waiter.cancel()
    }
}

/// Resumes one continuation exactly once, from the sequence's end or from cancellation, and
/// disposes the subscription either way.
private final class OutcomeWaiter<Result>: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<Result, Swift.Error>?
    private var outcome: Swift.Result<Result, Swift.Error>?
    private var cancelled = false
    private let subscription = SingleAssignmentDisposable()

    /// Subscribes even when the task was cancelled before: as in RxSwift, a sequence that ends
    /// during `subscribe` still gives its outcome; one that does not is disposed and the wait
    /// throws `CancellationError`.
    func start(_ continuation: CheckedContinuation<Result, Swift.Error>, subscribe: () -> Disposable) {
        lock.withLock { self.continuation = continuation }
        subscription.setDisposable(subscribe())
        if lock.withLock({ cancelled }) { cancel() }
    }

    func resume(with result: Swift.Result<Result, Swift.Error>) {
        let taken = lock.withLock { () -> CheckedContinuation<Result, Swift.Error>? in
            defer { continuation = nil }
            return continuation
        }
        subscription.dispose()
        taken?.resume(with: assumeSending(result))
    }

    func cancel() {
        let taken = lock.withLock { () -> CheckedContinuation<Result, Swift.Error>? in
            cancelled = true
            defer { continuation = nil }
            return continuation
        }
        subscription.dispose()
        taken?.resume(throwing: CancellationError())
    }
}
