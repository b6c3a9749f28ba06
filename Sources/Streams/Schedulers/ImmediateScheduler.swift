/// Runs work at once, on the calling thread.
///
/// Recursive scheduling on it grows the stack; prefer ``CurrentThreadScheduler`` for that.
public struct ImmediateScheduler: ImmediateSchedulerType, Sendable {
    /// The shared instance.
    public static let instance = ImmediateScheduler()

    private init() {}

    /// Runs `action(state)` now.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        action(state)
    }
}
