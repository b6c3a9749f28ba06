import Dispatch
import Foundation

/// Runs work on a serial dispatch queue: one action at a time, in the order scheduled.
///
/// Delayed and periodic work uses a `DispatchSourceTimer` on the same queue, so it also runs
/// one at a time with everything else. ``ObservableType/observe(on:)`` takes a fast path for
/// this scheduler, since a serial queue already keeps events in order.
///
///     let background = SerialDispatchQueueScheduler(qos: .userInitiated)
///     source.observe(on: background).subscribe(onNext: { heavyWork($0) })
///
/// ``MainScheduler`` is a subclass, as in RxSwift: a property of this type can hold
/// `MainScheduler.instance`. Other subclasses cannot be declared outside this module.
public class SerialDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
    /// The scheduler's time: a `Date`.
    public typealias Time = Date

    /// A duration in seconds.
    public typealias TimeInterval = Foundation.TimeInterval

    let configuration: DispatchQueueConfiguration

    /// The current wall-clock time.
    public var now: RxTime { Date() }

    /// Creates a scheduler on an existing serial queue.
    ///
    /// - Parameters:
    ///   - serialQueue: The queue; it must be serial.
    ///   - leeway: How late a timer may fire, to let the system coalesce wake-ups.
    init(serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: serialQueue, leeway: leeway)
    }

    /// Creates a scheduler on a new serial queue with the given name.
    ///
    /// - Parameters:
    ///   - internalSerialQueueName: The label of the new queue.
    ///   - serialQueueConfiguration: Called with the new queue before any work runs on it.
    ///   - leeway: How late a timer may fire, to let the system coalesce wake-ups.
    public convenience init(internalSerialQueueName: String, serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        let queue = DispatchQueue(label: internalSerialQueueName, attributes: [])
        serialQueueConfiguration?(queue)
        self.init(serialQueue: queue, leeway: leeway)
    }

    /// Creates a scheduler on a new serial queue that targets `queue`.
    ///
    /// Work scheduled here runs one at a time even when `queue` is concurrent.
    ///
    /// - Parameters:
    ///   - queue: The queue the new serial queue targets.
    ///   - internalSerialQueueName: The label of the new queue.
    ///   - leeway: How late a timer may fire, to let the system coalesce wake-ups.
    public convenience init(queue: DispatchQueue, internalSerialQueueName: String, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        let serialQueue = DispatchQueue(label: internalSerialQueueName, attributes: [], target: queue)
        self.init(serialQueue: serialQueue, leeway: leeway)
    }

    /// Creates a scheduler on a new serial queue that targets the global queue of `qos`.
    ///
    /// - Parameters:
    ///   - qos: The quality of service of the work.
    ///   - internalSerialQueueName: The label of the new queue.
    ///   - leeway: How late a timer may fire, to let the system coalesce wake-ups.
    public convenience init(qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial", leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), internalSerialQueueName: internalSerialQueueName, leeway: leeway)
    }

    /// The timer leeway.
    public var leeway: DispatchTimeInterval { configuration.leeway }

    /// Queues `action` on the serial queue.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - action: The work.
    /// - Returns: A disposable that cancels the work if it has not started, and disposes what it returned.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.schedule(state, action: action)
    }

    /// Runs `action` on the serial queue after `dueTime`.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - dueTime: The delay; `.never` never runs it.
    ///   - action: The work.
    /// - Returns: A disposable that cancels the timer, or disposes what the action returned.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` on the serial queue every `period`, the first time after `startAfter`.
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
