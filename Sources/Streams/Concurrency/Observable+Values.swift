extension ObservableConvertibleType {
    /// The elements of the sequence as an asynchronous stream.
    ///
    ///     for try await pizza in pizzas.values {
    ///         print(pizza.name)
    ///     }
    ///
    /// Each call subscribes once, when the stream is made. Elements are buffered without bound
    /// until the loop consumes them; completion ends the loop and an error is thrown from it.
    /// Ending the loop early (a `break`, a thrown error) or cancelling the consuming task
    /// disposes the subscription; a loop in a cancelled task throws `CancellationError` (as
    /// RxSwift's does), so it cannot be mistaken for a sequence that completed.
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        AsyncThrowingStream(bufferingPolicy: .unbounded) { continuation in
            let subscription = asObservable().subscribe(AnyObserver { event in
                switch event {
                case .next(let element): continuation.yield(assumeSending(element))
                case .error(let error): continuation.finish(throwing: error)
                case .completed: continuation.finish()
                }
            })
            let box = UncheckedSendable(subscription)
            continuation.onTermination = { termination in
                box.value.dispose()
                // The stream runs this before it ends itself on cancellation: ending it with
                // the error first makes the waiting iteration throw instead of return nil.
                if case .cancelled = termination { continuation.finish(throwing: CancellationError()) }
            }
        }
    }
}

extension SharedSequence {
    /// The elements of the driver or signal as an asynchronous stream, which never throws.
    ///
    ///     for await title in viewModel.title.values { print(title) }
    ///
    /// Elements are buffered without bound; cancelling the consuming task, or leaving the loop,
    /// disposes the subscription.
    public var values: AsyncStream<Element> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let subscription = asObservable().subscribe(AnyObserver { event in
                switch event {
                case .next(let element): continuation.yield(assumeSending(element))
                case .error, .completed: continuation.finish()
                }
            })
            let box = UncheckedSendable(subscription)
            continuation.onTermination = { _ in box.value.dispose() }
        }
    }
}
