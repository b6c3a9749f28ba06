/// Owns subscriptions and disposes them all when it is deallocated.
///
///     final class ViewModel {
///         let disposeBag = DisposeBag()
///         init(source: Observable<Int>) {
///             source.subscribe(onNext: { print($0) }).disposed(by: disposeBag)
///         }
///     }
///
/// Replace the bag (`disposeBag = DisposeBag()`) to dispose early. Safe to use from any thread.
public final class DisposeBag: @unchecked Sendable {
    private let lock = Lock()
    private var disposables: [Disposable] = []
    private var isDisposed = false

    /// Creates an empty bag.
    public init() {}

    /// Creates a bag that already holds `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init()
        self.disposables = disposables
    }

    /// Creates a bag that already holds `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        self.disposables = disposables
    }

    /// Adds a subscription; it is disposed with the bag (at once if the bag is already gone).
    ///
    /// - Parameter disposable: The subscription.
    public func insert(_ disposable: Disposable) {
        let disposeNow = lock.withLock { () -> Bool in
            if isDisposed { return true }
            disposables.append(disposable)
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Adds several subscriptions.
    public func insert(_ disposables: Disposable...) {
        for disposable in disposables { insert(disposable) }
    }

    private func dispose() {
        let taken = lock.withLock { () -> [Disposable] in
            let taken = disposables
            disposables = []
            isDisposed = true
            return taken
        }
        for disposable in taken { disposable.dispose() }
    }

    deinit { dispose() }
}
