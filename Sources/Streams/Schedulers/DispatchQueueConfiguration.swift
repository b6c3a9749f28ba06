import Dispatch
import Foundation
import Locking

/// The machinery shared by the dispatch-queue schedulers: immediate work with `async`,
/// delayed and periodic work with a `DispatchSourceTimer` on the same queue.
struct DispatchQueueConfiguration: @unchecked Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let work = UncheckedSendable((state, action))
        queue.async {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if dueTime == .never { return Disposables.create() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let scheduled = DispatchTimerAction(timer: timer)
        let work = UncheckedSendable((state, action))
        timer.schedule(deadline: Self.deadline(after: dueTime), leeway: leeway)
        // The handler keeps `scheduled` (and so the timer) alive until it fires or is disposed,
        // so a caller may drop the returned disposable.
        timer.setEventHandler {
            scheduled.fire { work.value.1(work.value.0) }
        }
        timer.resume()
        return scheduled
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        if startAfter == .never { return Disposables.create() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let periodic = DispatchPeriodicTimer(timer: timer, state: state, action: action)
        if period == .never {
            timer.schedule(deadline: Self.deadline(after: startAfter), leeway: leeway)
        } else {
            let nanoseconds = max(period.nanoseconds, 1)
            timer.schedule(deadline: Self.deadline(after: startAfter), repeating: .nanoseconds(nanoseconds), leeway: leeway)
        }
        timer.setEventHandler {
            periodic.tick()
        }
        timer.resume()
        return periodic
    }

    static func deadline(after interval: RxTimeInterval) -> DispatchTime {
        let nanoseconds = interval.nanoseconds
        if nanoseconds <= 0 { return .now() }
        if nanoseconds == .max { return .distantFuture }
        return .now() + .nanoseconds(nanoseconds)
    }
}

/// A one-shot timer and the disposable its action returned; disposing cancels either.
final class DispatchTimerAction: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var timer: DispatchSourceTimer?
    private var inner: Disposable?
    private var disposed = false

    init(timer: DispatchSourceTimer) {
        self.timer = timer
    }

    var isDisposed: Bool { lock.withLock { disposed } }

    /// Runs `action` unless disposed, and releases the timer (breaking the handler's cycle).
    func fire(_ action: () -> Disposable) {
        let timer = lock.withLock { () -> DispatchSourceTimer? in
            if disposed { return nil }
            defer { self.timer = nil }
            return self.timer
        }
        guard let timer else { return }
        timer.cancel()
        let result = action()
        let disposeNow = lock.withLock { () -> Bool in
            if disposed { return true }
            inner = result
            return false
        }
        if disposeNow { result.dispose() }
    }

    func dispose() {
        let taken = lock.withLock { () -> (DispatchSourceTimer?, Disposable?)? in
            if disposed { return nil }
            disposed = true
            defer { timer = nil; inner = nil }
            return (timer, inner)
        }
        guard let taken else { return }
        taken.0?.cancel()
        taken.1?.dispose()
    }
}

/// A repeating timer that threads a state through each tick; disposing cancels it.
///
/// A dispatch source never runs its handler concurrently with itself, so the state needs no
/// lock; only the cancellation flag is shared.
final class DispatchPeriodicTimer<State>: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var timer: DispatchSourceTimer?
    private var state: State
    private let action: (State) -> State
    private let disposed = AtomicFlag()

    init(timer: DispatchSourceTimer, state: State, action: @escaping (State) -> State) {
        self.timer = timer
        self.state = state
        self.action = action
    }

    var isDisposed: Bool { disposed.isSet }

    func tick() {
        if disposed.isSet { return }
        state = action(state)
    }

    func dispose() {
        guard disposed.setOnce() else { return }
        let timer = lock.withLock { () -> DispatchSourceTimer? in
            defer { self.timer = nil }
            return self.timer
        }
        timer?.cancel()
    }
}
