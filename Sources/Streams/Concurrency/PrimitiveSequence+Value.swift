extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Subscribes and waits for the single's element.
    ///
    ///     let pizza = try await api.pizza(id: 1).value
    ///
    /// Cancelling the waiting task disposes the subscription and throws `CancellationError`.
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
    /// Cancelling the waiting task disposes the subscription and throws `CancellationError`.
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
    /// Cancelling the waiting task disposes the subscription and throws `CancellationError`.
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

    func start(_ continuation: CheckedContinuation<Result, Swift.Error>, subscribe: () -> Disposable) {
        let cancelledAlready = lock.withLock { () -> Bool in
            if cancelled { return true }
            self.continuation = continuation
            return false
        }
        if cancelledAlready {
            continuation.resume(throwing: CancellationError())
            return
        }
        subscription.setDisposable(subscribe())
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
