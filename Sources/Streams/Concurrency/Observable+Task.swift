extension ObservableType {
    /// Creates a sequence from an asynchronous function: the `Observable.create` of async code.
    ///
    ///     let pages = Observable<Page>.task { observer in
    ///         var url: URL? = firstPage
    ///         while let next = url {
    ///             let page = try await client.fetch(next)
    ///             observer.onNext(page)
    ///             url = page.next
    ///         }
    ///     }
    ///     // --page1--page2--page3|
    ///
    /// Each subscription starts a task that runs `body`. When `body` returns, the sequence
    /// completes; when it throws, the sequence fails with that error. Disposing the
    /// subscription cancels the task (so `try await` calls inside `body` throw
    /// `CancellationError`) and drops anything sent afterwards. `body` may also end the
    /// sequence itself with `observer.onCompleted()` or `observer.onError(_:)`.
    ///
    /// RxSwift has no such factory; it is named after the `Task` that runs each subscription.
    ///
    /// - Parameters:
    ///   - priority: The priority of each subscription's task.
    ///   - body: The work, given an observer to send events to.
    /// - Returns: The observable.
    public static func task(
        priority: TaskPriority? = nil,
        _ body: @escaping @Sendable (AnyObserver<Element>) async throws -> Void
    ) -> Observable<Element> {
        Observable.create { observer in
            let task = Task(priority: priority) {
                do {
                    try await body(observer)
                    if !Task.isCancelled { observer.onCompleted() }
                } catch {
                    if !Task.isCancelled { observer.onError(error) }
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
