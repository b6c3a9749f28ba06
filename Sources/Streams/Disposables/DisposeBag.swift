import Locking
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

    /// Creates a bag holding the subscriptions the builder lists, one per line:
    ///
    ///     let bag = DisposeBag {
    ///         name.bind(to: label.rx.text)
    ///         tap.subscribe(onNext: { print("tapped") })
    ///     }
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Adds a subscription; it is disposed with the bag (at once if the bag is already gone).
    ///
    /// - Parameter disposable: The subscription.
    public func insert(_ disposable: Disposable) {
        insert([disposable])
    }

    /// Adds several subscriptions.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds an array of subscriptions (all disposed at once if the bag is already gone).
    public func insert(_ disposables: [Disposable]) {
        let disposeNow = lock.withLock { () -> Bool in
            if isDisposed { return true }
            self.disposables.append(contentsOf: disposables)
            return false
        }
        if disposeNow { for disposable in disposables { disposable.dispose() } }
    }

    /// Adds the subscriptions the builder lists, one per line (`bag.insert { … }`).
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Collects the subscriptions listed in a `DisposeBag { … }` or `insert { … }` block.
    @resultBuilder
    public struct DisposableBuilder {
        /// The listed subscriptions, in order.
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] { disposables }
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
