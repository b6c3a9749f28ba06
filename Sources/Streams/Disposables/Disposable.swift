/// A resource that can be released: usually a subscription.
///
/// Disposing stops event delivery and frees what the subscription holds. Calling
/// ``dispose()`` more than once has no further effect.
public protocol Disposable {
    /// Releases the resource. Idempotent.
    func dispose()
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
    /// `true` once ``Disposable/dispose()`` has been called.
    var isDisposed: Bool { get }
}

/// Factories for common disposables.
public enum Disposables {
    /// A disposable that does nothing.
    public static func create() -> Disposable { NopDisposable.shared }

    /// A disposable that runs `dispose` once, on the first call to `dispose()`.
    ///
    /// - Parameter dispose: The clean-up action.
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both arguments.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes all three arguments.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) -> Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes all arguments.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposables: Disposable...) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// A disposable that disposes every element of `disposables`.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        switch disposables.count {
        case 2: return BinaryDisposable(disposables[0], disposables[1])
        default: return CompositeDisposable(disposables: disposables)
        }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`, which disposes it when the bag is deallocated.
    ///
    /// - Parameter bag: The bag that owns the subscription.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}

final class NopDisposable: Disposable, Sendable {
    static let shared = NopDisposable()
    private init() {}
    func dispose() {}
}

/// Runs a closure once, on the first dispose.
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var action: (() -> Void)?

    init(_ action: @escaping () -> Void) { self.action = action }

    var isDisposed: Bool { lock.withLock { action == nil } }

    func dispose() {
        let action = lock.withLock { () -> (() -> Void)? in
            let taken = self.action
            self.action = nil
            return taken
        }
        action?()
    }
}

/// Disposes two disposables once.
final class BinaryDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var first: Disposable?
    private var second: Disposable?
    private var disposed = false

    init(_ first: Disposable, _ second: Disposable) {
        self.first = first
        self.second = second
    }

    var isDisposed: Bool { lock.withLock { disposed } }

    func dispose() {
        let taken: (Disposable?, Disposable?)? = lock.withLock {
            if disposed { return nil }
            disposed = true
            defer { first = nil; second = nil }
            return (first, second)
        }
        guard let taken else { return }
        taken.0?.dispose()
        taken.1?.dispose()
    }
}
