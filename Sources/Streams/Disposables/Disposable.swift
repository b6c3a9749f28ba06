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
///
/// An atomic flag decides which call runs it (no lock to allocate); that call releases it.
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    private let disposed = AtomicFlag()
    @exclusivity(unchecked) private var action: (() -> Void)?

    init(_ action: @escaping () -> Void) { self.action = action }

    var isDisposed: Bool { disposed.isSet }

    func dispose() {
        guard disposed.setOnce() else { return }
        action.take()?()
    }
}

/// Disposes two disposables once.
///
/// An atomic flag decides which call disposes (no lock to allocate): the one call that sets it
/// takes both members, so they are disposed once and released by the first dispose.
final class BinaryDisposable: Cancelable, @unchecked Sendable {
    private let disposed = AtomicFlag()
    @exclusivity(unchecked) private var first: Disposable?
    @exclusivity(unchecked) private var second: Disposable?

    init(_ first: Disposable, _ second: Disposable) {
        self.first = first
        self.second = second
    }

    var isDisposed: Bool { disposed.isSet }

    func dispose() {
        guard disposed.setOnce() else { return }
        let first = self.first.take()
        let second = self.second.take()
        first?.dispose()
        second?.dispose()
    }
}
