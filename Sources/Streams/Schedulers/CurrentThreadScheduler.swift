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
        trampoline.isRunning = true
        defer {
            trampoline.isRunning = false
            trampoline.queue.removeAll(keepingCapacity: true)
            trampoline.head = 0
        }
        let disposable = action(state)
        while trampoline.head < trampoline.queue.count {
            let item = trampoline.queue[trampoline.head]
            trampoline.head += 1
            if !item.isDisposed { item.invoke() }
            if trampoline.head > 1_024, trampoline.head * 2 > trampoline.queue.count {
                trampoline.queue.removeFirst(trampoline.head)
                trampoline.head = 0
            }
        }
        return disposable
    }
}

/// One queued action of a trampoline.
final class ScheduledItem: Cancelable, @unchecked Sendable {
    private let run: () -> Disposable
    private let disposable = SingleAssignmentDisposable()

    init<State>(action: @escaping (State) -> Disposable, state: State) {
        self.run = { action(state) }
    }

    func invoke() { disposable.setDisposable(run()) }

    var isDisposed: Bool { disposable.isDisposed }

    func dispose() { disposable.dispose() }
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
