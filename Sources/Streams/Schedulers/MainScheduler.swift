import Dispatch
import Foundation
import Locking

/// The UI scheduler: serial, and the only place where view state changes.
///
/// ``instance`` runs work at once when called on the main actor (see ``isOnMainActor``: the
/// main thread or work of the main dispatch queue) or inside a drain, with nothing queued
/// before it; otherwise the work is queued. ``asyncInstance`` always queues.
///
/// Queued work runs when the main scheduler is drained. On Apple platforms the main dispatch
/// queue drains it automatically. Everywhere, pumping the main run loop on the main thread
/// (`RunLoop.main.run(until:)`, as RxSwift-era tests do, or XCTest's `wait(for:timeout:)`)
/// drains it. A headless app or a test drains it itself with ``drain()`` or
/// ``run(until:timeout:)``; the thread that drains counts as the main scheduler meanwhile,
/// and only one thread drains at a time, so work never runs concurrently. Work that touches
/// main-actor state (views) must be drained on the main actor, as `Headless.run` and
/// `Headless.drain` do: a `@MainActor` closure run elsewhere stops the process.
///
/// As in RxSwift it is a ``SerialDispatchQueueScheduler`` (its queue is the main dispatch
/// queue), so code that keeps one in such a property compiles unchanged:
///
///     let scheduler: SerialDispatchQueueScheduler = MainScheduler.instance
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    /// The main scheduler: immediate on the main actor when nothing is queued.
    public static let instance = MainScheduler(alwaysQueue: false)

    /// The main scheduler, always queueing (never runs work inside `schedule`).
    public static let asyncInstance = MainScheduler(alwaysQueue: true)

    /// When `true`, queued work also asks the main dispatch queue to drain the scheduler.
    /// The default is `true` on Apple platforms and `false` elsewhere, where headless apps
    /// and tests drain explicitly. (A build with `-D STREAMS_MAIN_QUEUE_DRAINS` takes Apple's
    /// default on Linux: CI runs the test suites so, as they would run on Apple platforms.)
    nonisolated(unsafe) public static var drainsOnMainDispatchQueue: Bool = {
        #if canImport(Darwin) || STREAMS_MAIN_QUEUE_DRAINS
        return true
        #else
        return false
        #endif
    }()

    private let alwaysQueue: Bool

    /// Whether ``schedule(_:action:)`` may run work at once (every main scheduler but
    /// ``asyncInstance``).
    var runsWorkInline: Bool { !alwaysQueue }

    private init(alwaysQueue: Bool) {
        self.alwaysQueue = alwaysQueue
        super.init(serialQueue: DispatchQueue.main)
    }

    /// A main scheduler like ``instance``: immediate on the main thread when nothing is queued.
    /// Every main scheduler shares the one queue of main-thread work.
    public convenience init() {
        self.init(alwaysQueue: false)
    }

    /// Stops with a clear message when not called on the main actor (RxSwift's main-thread
    /// check, for code that must run there rather than inside a headless drain on another
    /// thread): the main thread, or work of the main dispatch queue (see ``isOnMainActor``).
    ///
    /// - Parameter errorMessage: Extra text for the failure.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        precondition(isOnMainActor, errorMessage ?? "Running on a background thread instead of the main thread.")
    }

    /// `true` when the calling code runs on the main scheduler: on the main actor (see
    /// ``isOnMainActor``), or inside a drain.
    public static var isOnMainScheduler: Bool {
        isOnMainActor || TrampolineState.current?.isDrainingMain == true
    }

    /// `true` when the calling code runs on the main actor's executor: inside work of the main
    /// dispatch queue (which is how the main actor runs jobs, a `@MainActor` test's body among
    /// them, even where a worker thread services that queue, as under `swift test` on Linux),
    /// or on the main thread itself. Asked without crashing: it reads a `DispatchSpecificKey`
    /// set on `DispatchQueue.main`, where `MainActor.assumeIsolated` would stop the process.
    public static var isOnMainActor: Bool {
        MainQueueMark.isOnMainQueue || Thread.isMainThread
    }

    /// Stops with a clear message when not called on the main scheduler.
    ///
    /// - Parameter errorMessage: Extra text for the failure.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        precondition(isOnMainScheduler, errorMessage ?? "Executing on a background thread. Please use `MainScheduler.instance.schedule` to schedule work on the main scheduler.")
    }

    /// Runs `action` now when allowed (see the type's discussion), otherwise queues it.
    public override func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if !alwaysQueue, Self.isOnMainScheduler, MainQueue.shared.beginInline() {
            defer { MainQueue.shared.endInline() }
            return action(state)
        }
        let item = ScheduledItem(action: action, state: state)
        MainQueue.shared.enqueue(item)
        return item
    }

    /// Queues `action` on the main scheduler after `dueTime`.
    public override func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = ScheduledItem(action: action, state: state)
        let nanoseconds = dueTime.nanoseconds
        if nanoseconds <= 0 {
            MainQueue.shared.enqueue(item)
            return item
        }
        if nanoseconds == .max { return item }
        let box = UncheckedSendable(item)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            if !box.value.isDisposed { MainQueue.shared.enqueue(box.value) }
        }
        return item
    }

    /// Runs `action` every `period`, the first time after `startAfter`, each run queued on the
    /// main scheduler like any other work (not on a dispatch timer of the main queue).
    ///
    /// - Parameters:
    ///   - state: The first state.
    ///   - startAfter: The delay before the first run.
    ///   - period: The time between runs.
    ///   - action: The work; it returns the state for the next run.
    /// - Returns: A disposable that stops the runs.
    public override func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        PeriodicTicker(scheduler: self, state: state, period: period, action: action).start(after: startAfter)
    }

    /// Runs `body` while nothing drains the main scheduler on its own: the main dispatch queue
    /// (``drainsOnMainDispatchQueue``) and the main run loop leave queued work queued, so only
    /// an explicit ``drain()``, ``run(until:timeout:)`` or blocking wait runs it. A test that
    /// asserts "nothing ran until I drained" holds it, on Apple platforms as on Linux, where a
    /// test that is not on the main actor leaves the main thread free to drain behind its
    /// back. Holds nest; once the last ends, work still queued is drained automatically again.
    /// StreamsTesting's `.resourceCheck` trait holds the scheduler for each test it runs.
    ///
    /// - Parameter body: The code that owns the main scheduler meanwhile.
    /// - Returns: What `body` returns.
    public static func holdingAutomaticDrains<T>(_ body: () throws -> T) rethrows -> T {
        MainQueue.shared.beginHold()
        defer { MainQueue.shared.endHold() }
        return try body()
    }

    /// The asynchronous form of ``holdingAutomaticDrains(_:)``: the hold lasts across the
    /// suspensions of `body`.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, where `body` runs.
    ///   - body: The code that owns the main scheduler meanwhile.
    /// - Returns: What `body` returns.
    public static func holdingAutomaticDrains<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        MainQueue.shared.beginHold()
        defer { MainQueue.shared.endHold() }
        return try await body()
    }

    /// Whether a ``holdingAutomaticDrains(_:)`` is in progress.
    public static var automaticDrainsHeld: Bool { MainQueue.shared.isHeld }

    /// Runs all queued work, and the work it queues, on the calling thread.
    ///
    /// - Returns: The number of actions run.
    @discardableResult
    public static func drain() -> Int {
        MainQueue.shared.drain()
    }

    /// Runs `body` on the calling thread the way the main thread runs an event handler (a tap,
    /// a keystroke): outside any scheduled action, so what `body` schedules on ``instance`` runs
    /// inline while nothing is queued or executing, as in RxSwift; meanwhile no other thread runs
    /// main-scheduler work. Queued work is not drained; the caller drains before or after.
    ///
    /// - Parameter body: The code, on the main actor.
    /// - Returns: What `body` returns.
    package static func runAsEventHandler<T>(_ body: () throws -> T) rethrows -> T {
        try MainQueue.shared.runHoldingExecution(body)
    }

    /// Runs `work` on the main actor: at once when the caller is already there (see
    /// ``isOnMainActor``), otherwise as work of the main dispatch queue. Not a main-scheduler
    /// action: nothing is queued behind other main-scheduler work.
    ///
    /// - Parameter work: The main-actor code; what it captures is handed to the main actor and
    ///   must not be touched by the caller afterwards.
    package static func performOnMainActor(_ work: @escaping @MainActor () -> Void) {
        let handOver = UncheckedSendable(work)
        if isOnMainActor {
            MainActor.assumeIsolated { handOver.value() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { handOver.value() } }
        }
    }

    /// Drains repeatedly, waiting for new work, until `condition` holds or `timeout` passes.
    ///
    /// - Parameters:
    ///   - condition: Checked after each drain.
    ///   - timeout: The longest wait, in seconds.
    /// - Returns: `true` if the condition held before the timeout.
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            drain()
            if condition() { return true }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            MainQueue.shared.waitForWork(upTo: min(remaining, 0.05))
        }
    }

    /// The number of queued actions not yet run.
    public static var pendingCount: Int { MainQueue.shared.pendingCount }

    /// For a thread that blocks until a sequence delivers (`toBlocking()`): runs queued
    /// main-scheduler work on the calling thread, as ``drain()`` does, but only when nothing else
    /// is running it — no thread draining, no action executing — and none has been taken off the
    /// queue for `grace` seconds, which the caller measures with `watch`. Stops early, between
    /// two actions, once `stop` holds.
    ///
    /// - Parameters:
    ///   - watch: What the caller saw at its previous call (start with a fresh value).
    ///   - grace: How long queued work may wait for another drainer (the main dispatch queue on
    ///     Apple platforms) before the caller runs it.
    ///   - stop: Checked before each action.
    /// - Returns: The number of actions run.
    @discardableResult
    package static func drainUnattended(_ watch: inout UnattendedWatch, grace: TimeInterval, until stop: () -> Bool) -> Int {
        MainQueue.shared.drainUnattended(&watch, grace: grace, until: stop)
    }

    /// What a blocking wait saw of the main queue at its previous look (see
    /// ``drainUnattended(_:grace:until:)``).
    package struct UnattendedWatch {
        var taken: UInt64 = .max
        var since = Date.distantFuture

        package init() {}
    }
}
