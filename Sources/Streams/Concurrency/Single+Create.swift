extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A single that runs `work` in a task for each subscription and succeeds with what it
    /// returns or fails with what it throws; disposing the subscription cancels the task.
    ///
    ///     let menu = Single<[String]>.create { try await api.menu() }
    ///
    /// - Parameters:
    ///   - detached: Run `work` in a detached task instead of one that inherits the caller's
    ///     priority and task-local values.
    ///   - priority: The task's priority.
    ///   - work: The asynchronous operation.
    /// - Returns: The single.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> Single<Element> {
        Single<Element>.create { single in
            let deliver = UncheckedSendable(single)
            let operation: @Sendable () async -> Void = {
                do {
                    let element = try await work()
                    deliver.value(.success(element))
                } catch {
                    deliver.value(.failure(error))
                }
            }
            let task = detached ? Task.detached(priority: priority, operation: operation) : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }
}
