import Locking
/// Disposes its underlying disposable only when it has been disposed and every dependent
/// disposable obtained from ``retain()`` has been disposed too.
public final class RefCountDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var disposable: Disposable?
    private var primaryDisposed = false
    private var count = 0

    /// Creates a reference-counted wrapper around `disposable`.
    public init(disposable: Disposable) { self.disposable = disposable }

    /// `true` once the underlying disposable has been disposed.
    public var isDisposed: Bool { lock.withLock { disposable == nil } }

    /// A dependent disposable that keeps the underlying one alive until disposed.
    public func retain() -> Disposable {
        let alive = lock.withLock { () -> Bool in
            guard disposable != nil else { return false }
            count += 1
            return true
        }
        guard alive else { return Disposables.create() }
        return Disposables.create { [weak self] in self?.release() }
    }

    /// Marks the primary as disposed; disposes the underlying when no dependent remains.
    public func dispose() {
        let taken = lock.withLock { () -> Disposable? in
            guard disposable != nil, !primaryDisposed else { return nil }
            primaryDisposed = true
            guard count == 0 else { return nil }
            defer { disposable = nil }
            return disposable
        }
        taken?.dispose()
    }

    private func release() {
        let taken = lock.withLock { () -> Disposable? in
            guard disposable != nil else { return nil }
            count -= 1
            guard primaryDisposed, count == 0 else { return nil }
            defer { disposable = nil }
            return disposable
        }
        taken?.dispose()
    }
}
