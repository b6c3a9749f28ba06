import Dispatch
import Foundation

/// Runs work as operations on an `OperationQueue`, at a given queue priority.
///
/// Delayed work waits on a dispatch timer and is then added to the operation queue; periodic
/// work chains delayed work, so runs never overlap. (RxSwift's `OperationQueueScheduler` is
/// only an `ImmediateSchedulerType`; this one also knows time.)
public final class OperationQueueScheduler: SchedulerType, @unchecked Sendable {
    /// The queue that runs the work.
    public let operationQueue: OperationQueue
    /// The priority given to each operation.
    public let queuePriority: Operation.QueuePriority

    /// Creates a scheduler that adds operations to `operationQueue`.
    ///
    /// - Parameters:
    ///   - operationQueue: The queue that runs the work.
    ///   - queuePriority: The priority of each operation.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// The current wall-clock time.
    public var now: RxTime { Date() }

    /// Adds an operation that runs `action`.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - action: The work.
    /// - Returns: A disposable that cancels the operation if it has not started, and disposes
    ///   what the action returned.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let work = UncheckedSendable((state, action))
        let operation = BlockOperation {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        let box = UncheckedSendable(operation)
        return Disposables.create(cancel, Disposables.create { box.value.cancel() })
    }

    /// Adds an operation that runs `action` after `dueTime`.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - dueTime: The delay; `.never` never runs it.
    ///   - action: The work.
    /// - Returns: A disposable that cancels the timer or the operation, or disposes what the
    ///   action returned.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if dueTime == .never { return Disposables.create() }
        let serial = SerialDisposable()
        let timerQueue = DispatchQueue.global(qos: .default)
        let timer = DispatchQueueConfiguration(queue: timerQueue, leeway: .nanoseconds(0))
        let work = UncheckedSendable((state, action))
        serial.disposable = timer.scheduleRelative((), dueTime: dueTime) { _ in
            if !serial.isDisposed {
                serial.disposable = self.schedule(work.value.0, action: work.value.1)
            }
            return Disposables.create()
        }
        return serial
    }
}
