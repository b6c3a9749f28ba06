import Locking
/// Holds one disposable at a time; assigning a new one disposes the previous one.
///
/// After ``dispose()``, any newly assigned disposable is disposed at once.
public final class SerialDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var current: Disposable?
    private var disposed = false

    /// Creates an empty serial disposable.
    public init() {}

    /// `true` once disposed.
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// The current disposable; setting it disposes the previous one.
    public var disposable: Disposable {
        get { lock.withLock { current ?? Disposables.create() } }
        set {
            let (previous, disposeNew) = lock.withLock { () -> (Disposable?, Bool) in
                if disposed { return (nil, true) }
                let previous = current
                current = newValue
                return (previous, false)
            }
            previous?.dispose()
            if disposeNew { newValue.dispose() }
        }
    }

    /// Disposes the current disposable and every later one.
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
