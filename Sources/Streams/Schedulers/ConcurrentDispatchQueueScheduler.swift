import Dispatch
import Foundation

/// Runs work on a dispatch queue that may be concurrent: independent actions may run at the
/// same time on different threads.
///
/// Operators still deliver each subscription's events one at a time; use this scheduler for
/// work that does not need a single thread, such as `subscribe(on:)` of independent requests.
public final class ConcurrentDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
    /// The scheduler's time: a `Date`.
    public typealias Time = Date

    /// A duration in seconds.
    public typealias TimeInterval = Foundation.TimeInterval

    let configuration: DispatchQueueConfiguration

    /// The current wall-clock time.
    public var now: RxTime { Date() }

    /// Creates a scheduler on `queue`.
    ///
    /// - Parameters:
    ///   - queue: The queue, serial or concurrent.
    ///   - leeway: How late a timer may fire, to let the system coalesce wake-ups.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway)
    }

    /// Creates a scheduler on the global concurrent queue of `qos`.
    ///
    /// - Parameters:
    ///   - qos: The quality of service of the work.
    ///   - leeway: How late a timer may fire, to let the system coalesce wake-ups.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
    }

    /// The timer leeway.
    public var leeway: DispatchTimeInterval { configuration.leeway }

    /// Queues `action` on the queue.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - action: The work.
    /// - Returns: A disposable that cancels the work if it has not started, and disposes what it returned.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.schedule(state, action: action)
    }

    /// Runs `action` on the queue after `dueTime`.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - dueTime: The delay; `.never` never runs it.
    ///   - action: The work.
    /// - Returns: A disposable that cancels the timer, or disposes what the action returned.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` on the queue every `period`, the first time after `startAfter`; runs
    /// never overlap.
    ///
    /// - Parameters:
    ///   - state: The first state.
    ///   - startAfter: The delay before the first run.
    ///   - period: The time between runs.
    ///   - action: The work; it returns the state for the next run.
    /// - Returns: A disposable that stops the timer.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
