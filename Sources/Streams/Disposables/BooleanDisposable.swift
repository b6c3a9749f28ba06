/// A disposable whose only state is whether it has been disposed.
public final class BooleanDisposable: Cancelable, @unchecked Sendable {
    private let flag = AtomicFlag()

    /// A disposable already disposed.
    public static let BooleanDisposableTrue = BooleanDisposable(isDisposed: true)

    /// Creates a disposable that has not been disposed.
    public init() {}

    /// Creates a disposable in the given state.
    ///
    /// - Parameter isDisposed: The initial state.
    public init(isDisposed: Bool) {
        if isDisposed { _ = flag.setOnce() }
    }

    /// `true` once disposed.
    public var isDisposed: Bool { flag.isSet }

    /// Marks the disposable as disposed.
    public func dispose() { _ = flag.setOnce() }
}
