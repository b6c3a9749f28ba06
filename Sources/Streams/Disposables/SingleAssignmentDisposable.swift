import Locking
/// A disposable that is assigned exactly once, possibly after it has been disposed.
///
/// Disposing before assignment makes the later assignment dispose its value at once.
/// Assigning twice is a programming error.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var current: Disposable?
    private var assigned = false
    private var disposed = false

    /// Creates an unassigned disposable.
    public init() {}

    /// `true` once disposed.
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// Assigns the underlying disposable.
    ///
    /// - Parameter disposable: The value; disposed at once if this object already is.
    public func setDisposable(_ disposable: Disposable) {
        let disposeNow = lock.withLock { () -> Bool in
            precondition(!assigned, "SingleAssignmentDisposable can only be assigned once")
            assigned = true
            if disposed { return true }
            current = disposable
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Disposes the underlying disposable (now, or when it is assigned).
    public func dispose() {
        let taken = lock.withLock { () -> Disposable? in
            if disposed { return nil }
            disposed = true
            defer { current = nil }
            return current
        }
        taken?.dispose()
    }
}
