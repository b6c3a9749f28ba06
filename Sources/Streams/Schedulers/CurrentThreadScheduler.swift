import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A trampoline: work scheduled while other work runs on the same thread is queued and run
/// after it, on that thread, so recursive scheduling never overflows the stack.
///
/// The first `schedule` on a thread runs its action at once and then drains the queue that
/// nested calls filled.
public final class CurrentThreadScheduler: ImmediateSchedulerType, Sendable {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// `true` when no trampoline is running on the calling thread, so `schedule` runs at once.
    public static var isScheduleRequired: Bool {
        TrampolineState.current?.isRunning != true
    }

    /// Runs `action` now if no trampoline is running on this thread, otherwise queues it.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = TrampolineState.currentOrCreate()
        if trampoline.isRunning {
            let item = ScheduledItem(action: action, state: state)
            trampoline.queue.append(item)
            return item
        }
        return trampoline.run { action(state) }
    }

    /// Runs `body` now, inside this thread's trampoline: if none is running, `body` becomes its
    /// first action, and the work it schedules runs after it, before this returns. What
    /// `schedule(_:action:)` does for an action that runs at once, without the escaping closure
    /// (an allocation per call): every subscription starts here.
    @inline(__always)
    static func runInTrampoline(_ body: () -> Disposable) -> Disposable {
        let trampoline = TrampolineState.currentOrCreate()
        if trampoline.isRunning { return body() }
        return trampoline.run(body)
    }

    /// Runs `body` now, inside this thread's trampoline, as a subscription's start does, with no
    /// disposable to make: how a flattening operator runs an inner sequence it does not
    /// subscribe to (see ``InnerShortcut``). `body` gets the trampoline and whether this call
    /// started it: then `body` is its first action, and as long as its queue stays empty no
    /// other work is due before the body's next step.
    @inline(__always)
    static func runInTrampoline(_ body: (_ trampoline: TrampolineState, _ started: Bool) -> Void) {
        let trampoline = TrampolineState.currentOrCreate()
        if trampoline.isRunning {
            body(trampoline, false)
            return
        }
        trampoline.run { body(trampoline, true) }
    }
}

/// One queued action of a trampoline (and of the main scheduler's queue).
///
/// Its closure is handed out once: to the queue when the action runs, or to nobody when it is
/// disposed first, in which case the closure, and the sinks and objects it captured, is released
/// at once rather than when the queue reaches the item or its due time comes. Only the winner
/// of `claimed` touches `run`, so no lock is needed.
final class ScheduledItem: Cancelable, @unchecked Sendable {
    private let claimed = Atomic<Bool>(false)
    private var run: (() -> Disposable)?
    private let disposable = SingleAssignmentDisposable()

    init<State>(action: @escaping (State) -> Disposable, state: State) {
        self.run = { action(state) }
    }

    func invoke() {
        guard let run = claim() else { return }
        disposable.setDisposable(run())
    }

    var isDisposed: Bool { disposable.isDisposed }

    func dispose() {
        let released = claim()
        disposable.dispose()
        _ = released    // the closure is freed here, after the item is marked disposed
    }

    private func claim() -> (() -> Disposable)? {
        guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        defer { run = nil }
        return run
    }
}

/// The trampoline of one thread, kept in thread-local storage.
final class TrampolineState {
    var isRunning = false
    var isDrainingMain = false
    var queue: [ScheduledItem] = []
    var head = 0

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<TrampolineState>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<TrampolineState>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "pthread_key_create failed")
        return key
    }()

    /// Runs `body` as the first action of this trampoline, which is not running, then the work
    /// queued meanwhile, in order.
    func run(_ body: () -> Disposable) -> Disposable {
        isRunning = true
        defer { stop() }
        let disposable = body()
        drain()
        return disposable
    }

    /// Runs `body` as the first action of this trampoline, which is not running, then the work
    /// queued meanwhile, in order; for a first action that makes no disposable.
    func run(_ body: () -> Void) {
        isRunning = true
        defer { stop() }
        body()
        drain()
    }

    /// Whether work is queued that has not run yet: work scheduled now would run after it.
    var hasQueuedWork: Bool { head < queue.count }

    /// Runs the queued work, in order, including what it queues in turn.
    private func drain() {
        while head < queue.count {
            let item = queue[head]
            head += 1
            if !item.isDisposed { item.invoke() }
            if head > 1_024, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
        }
    }

    /// Marks the trampoline idle, with an empty queue.
    private func stop() {
        isRunning = false
        if !queue.isEmpty { queue.removeAll(keepingCapacity: true) }
        head = 0
    }

    static var current: TrampolineState? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<TrampolineState>.fromOpaque(pointer).takeUnretainedValue()
    }

    static func currentOrCreate() -> TrampolineState {
        if let existing = current { return existing }
        let state = TrampolineState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }
}
