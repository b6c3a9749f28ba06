import Locking
/// Disposes its underlying disposable on a given scheduler.
public final class ScheduledDisposable: Cancelable, @unchecked Sendable {
    /// The scheduler the disposal runs on.
    public let scheduler: ImmediateSchedulerType
    private let lock = Lock()
    private var disposable: Disposable?
    private var disposed = false

    /// Creates a disposable that disposes `disposable` on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.disposable = disposable
    }

    /// `true` once disposed.
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// Schedules disposal of the underlying disposable.
    public func dispose() {
        let taken = lock.withLock { () -> Disposable? in
            if disposed { return nil }
            disposed = true
            defer { disposable = nil }
            return disposable
        }
        guard let taken else { return }
        _ = scheduler.schedule(()) { _ in
            taken.dispose()
            return Disposables.create()
        }
    }
}
