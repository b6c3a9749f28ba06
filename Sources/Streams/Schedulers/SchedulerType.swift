import Dispatch
import Foundation
import Locking

/// A time span, as in RxSwift 6: `.seconds(1)`, `.milliseconds(300)`, `.never` …
public typealias RxTimeInterval = DispatchTimeInterval

/// A point in time on a scheduler's clock.
public typealias RxTime = Date

/// Runs work now or as soon as possible, in order.
public protocol ImmediateSchedulerType {
    /// Schedules `action` to run with `state`.
    ///
    /// - Parameters:
    ///   - state: The value passed to `action`.
    ///   - action: The work; the disposable it returns is disposed with the returned one.
    /// - Returns: A disposable that cancels the work if it has not run yet.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// A scheduler that also knows time: it can run work after a delay, and periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Schedules `action` to run after `dueTime`.
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable

    /// Schedules `action` every `period`, starting after `startAfter`; each run receives the
    /// state returned by the previous one.
    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable
}

extension SchedulerType {
    /// A periodic schedule built from recursive relative scheduling; schedulers with a native
    /// timer override it.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let periodic = PeriodicTicker(scheduler: self, state: state, period: period, action: action)
        return periodic.start(after: startAfter)
    }
}

final class PeriodicTicker<Scheduler: SchedulerType, State>: @unchecked Sendable {
    private let scheduler: Scheduler
    private let period: RxTimeInterval
    private let action: (State) -> State
    private var state: State
    private let serial = SerialDisposable()

    init(scheduler: Scheduler, state: State, period: RxTimeInterval, action: @escaping (State) -> State) {
        self.scheduler = scheduler
        self.state = state
        self.period = period
        self.action = action
    }

    func start(after delay: RxTimeInterval) -> Disposable {
        serial.disposable = scheduler.scheduleRelative((), dueTime: delay) { _ in self.tick() }
        return serial
    }

    private func tick() -> Disposable {
        if serial.isDisposed { return Disposables.create() }
        state = action(state)
        if !serial.isDisposed {
            serial.disposable = scheduler.scheduleRelative((), dueTime: period) { _ in self.tick() }
        }
        return Disposables.create()
    }
}

extension ImmediateSchedulerType {
    /// Schedules `action` recursively: `recurse` schedules the next step on this scheduler.
    ///
    /// - Parameters:
    ///   - state: The first state.
    ///   - action: The step; call `recurse` to schedule another one.
    /// - Returns: A disposable that stops the recursion.
    public func scheduleRecursive<State>(_ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void) -> Disposable {
        let recursive = RecursiveScheduler(action: action) { state, step in self.schedule(state, action: step) }
        recursive.schedule(state)
        return Disposables.create(with: recursive.dispose)
    }
}

extension SchedulerType {
    /// Schedules `action` recursively after `dueTime`; `recurse` schedules the next step after
    /// another `dueTime`.
    public func scheduleRecursive<State>(_ state: State, dueTime: RxTimeInterval, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void) -> Disposable {
        let recursive = RecursiveScheduler(action: action) { state, step in
            self.scheduleRelative(state, dueTime: dueTime, action: step)
        }
        recursive.schedule(state)
        return Disposables.create(with: recursive.dispose)
    }
}

/// A recursion on a scheduler: each step runs `action`, whose `recurse` asks `start` for the next
/// step. `start` is the scheduler's `schedule` (at once, or queued) or its `scheduleRelative`
/// after a due time; the steps still pending are kept in one group, so disposing stops them all.
final class RecursiveScheduler<State>: @unchecked Sendable {
    typealias Start = (State, @escaping (State) -> Disposable) -> Disposable

    private let lock = Lock()
    private var action: ((State, (State) -> Void) -> Void)?
    private let start: Start
    private var group = CompositeDisposable()

    init(action: @escaping (State, (State) -> Void) -> Void, start: @escaping Start) {
        self.action = action
        self.start = start
    }

    func schedule(_ state: State) {
        var scheduleState: (completed: Bool, key: CompositeDisposable.DisposeKey?) = (false, nil)
        let disposable = start(state) { state -> Disposable in
            let action = self.lock.withLock { () -> ((State, (State) -> Void) -> Void)? in
                scheduleState.completed = true
                if let key = scheduleState.key { self.group.remove(for: key) }
                return self.action
            }
            action?(state, self.schedule)
            return Disposables.create()
        }
        lock.withLock {
            if !scheduleState.completed {
                scheduleState.key = group.insert(disposable)
            }
        }
    }

    func dispose() {
        lock.withLock { action = nil }
        group.dispose()
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds; `.never` is infinity.
    var seconds: Double {
        switch self {
        case .seconds(let value): return Double(value)
        case .milliseconds(let value): return Double(value) / 1_000
        case .microseconds(let value): return Double(value) / 1_000_000
        case .nanoseconds(let value): return Double(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }

    /// The interval in nanoseconds, saturating; `.never` is `Int.max`.
    var nanoseconds: Int {
        switch self {
        case .seconds(let value): return value.multipliedReportingOverflow(by: 1_000_000_000).overflow ? .max : value * 1_000_000_000
        case .milliseconds(let value): return value.multipliedReportingOverflow(by: 1_000_000).overflow ? .max : value * 1_000_000
        case .microseconds(let value): return value.multipliedReportingOverflow(by: 1_000).overflow ? .max : value * 1_000
        case .nanoseconds(let value): return value
        case .never: return .max
        @unknown default: return .max
        }
    }
}

extension Date {
    func adding(_ interval: RxTimeInterval) -> Date {
        addingTimeInterval(interval.seconds)
    }
}
