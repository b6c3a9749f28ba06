extension AsyncSequence {
    /// The asynchronous sequence as an ``Observable``.
    ///
    ///     let ticks = AsyncStream<Int> { … }.asObservable()
    ///
    /// Each subscription starts a detached task of `priority` that iterates the sequence,
    /// sending each element, then completion when the sequence ends (or throws
    /// `CancellationError`) or the error it throws. Disposing the subscription cancels the
    /// task; nothing is sent after that. Elements are sent from the task, so observers are
    /// called on a cooperative-pool thread (use `observe(on:)` to move them).
    ///
    /// - Parameter priority: The priority of the iterating task; by default none.
    /// - Returns: The observable.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        let sequence = UncheckedSendable(self)
        return Observable.create { observer in
            // The iterator is made and driven through a closure built here, outside the task,
            // so the task itself needs nothing from this sequence's type.
            var iterator = sequence.value.makeAsyncIterator()
            let next = UncheckedSendable { () async throws -> Element? in try await iterator.next() }
            return pumpAsyncElements(next, priority: priority, into: observer)
        }
    }
}

/// Runs a task that sends what `next` produces to `observer`, then completion or the error;
/// disposing the result cancels the task, after which nothing is sent.
private func pumpAsyncElements<Element>(
    _ next: UncheckedSendable<() async throws -> Element?>, priority: TaskPriority?, into observer: AnyObserver<Element>
) -> Disposable {
    // Detached, as RxSwift's: subscribing from an actor does not put the iteration on it.
    let task = Task.detached(priority: priority) {
        do {
            while let element = try await next.value() {
                if Task.isCancelled { return }
                observer.onNext(element)
            }
            if !Task.isCancelled { observer.onCompleted() }
        } catch is CancellationError {
            if !Task.isCancelled { observer.onCompleted() }
        } catch {
            if !Task.isCancelled { observer.onError(error) }
        }
    }
    return Disposables.create { task.cancel() }
}

extension ObservableType {
    /// A sequence of the elements of an asynchronous sequence; see
    /// `AsyncSequence.asObservable()`.
    ///
    ///     let numbers = Observable.from(AsyncStream { … })
    ///
    /// - Parameter asyncSequence: The source; iterated once per subscription.
    /// - Returns: The observable.
    public static func from<Source: AsyncSequence>(_ asyncSequence: Source) -> Observable<Element> where Source.Element == Element {
        asyncSequence.asObservable()
    }
}
