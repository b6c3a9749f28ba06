import Foundation

/// The main scheduler for subscribing: work scheduled on the main thread (or inside a drain of
/// ``MainScheduler``, which stands for it in headless code) runs at once, work scheduled from
/// elsewhere goes to ``MainScheduler`` (RxSwift's scheduler for `subscribe(on:)` when the
/// subscription must happen on the main thread).
///
///     source.subscribe(on: ConcurrentMainScheduler.instance)
///
/// Unlike ``MainScheduler/instance`` it does not wait for queued main-thread work: an action
/// scheduled on the main thread runs inside `schedule`, even while other work is queued, so it
/// is meant for subscribing, not for delivering elements in order.
public final class ConcurrentMainScheduler: SchedulerType, @unchecked Sendable {
    /// The scheduler's time: a `Date`.
    public typealias Time = Date

    /// A duration in seconds.
    public typealias TimeInterval = Foundation.TimeInterval

    /// The one instance.
    public static let instance = ConcurrentMainScheduler()

    private let main = MainScheduler.asyncInstance

    private init() {}

    /// The current wall-clock time.
    public var now: RxTime { Date() }

    /// Runs `action` now on the main thread (or in a drain), or queues it on the main scheduler
    /// from elsewhere.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - action: The work.
    /// - Returns: What cancels the work if it has not run.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if MainScheduler.isOnMainScheduler { return action(state) }
        return main.schedule(state, action: action)
    }

    /// Runs `action` on the main scheduler after `dueTime`.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - dueTime: The wait.
    ///   - action: The work.
    /// - Returns: What cancels the work if it has not run.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        main.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` on the main scheduler after `startAfter`, then every `period`.
    ///
    /// - Parameters:
    ///   - state: The first state.
    ///   - startAfter: The wait before the first run.
    ///   - period: The time between runs.
    ///   - action: The work; returns the next state.
    /// - Returns: What stops the runs.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        main.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
