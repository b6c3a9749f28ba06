import Locking
/// A group of disposables disposed together; members can be added and removed by key.
///
/// Adding to a composite that is already disposed disposes the new member at once.
public final class CompositeDisposable: Cancelable, @unchecked Sendable {
    /// The key of one member, returned by ``insert(_:)``.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let key: UInt64
    }

    private let lock = Lock()
    private var disposables: Bag<Disposable>? = Bag()

    /// Creates an empty group.
    public init() {}

    /// Creates a group of two.
    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        _ = disposables?.insert(disposable1)
        _ = disposables?.insert(disposable2)
    }

    /// Creates a group of three.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        _ = disposables?.insert(disposable1)
        _ = disposables?.insert(disposable2)
        _ = disposables?.insert(disposable3)
    }

    /// Creates a group of four or more.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...) {
        for disposable in [disposable1, disposable2, disposable3, disposable4] + disposables { _ = self.disposables?.insert(disposable) }
    }

    /// Creates a group of any number.
    public init(disposables: [Disposable]) {
        for disposable in disposables { _ = self.disposables?.insert(disposable) }
    }

    /// Adds a member.
    ///
    /// - Parameter disposable: The member.
    /// - Returns: Its key, or `nil` if the group was already disposed (the member is then
    ///   disposed immediately).
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key: UInt64? = lock.withLock { disposables?.insert(disposable) }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return DisposeKey(key: key)
    }

    /// The number of members.
    public var count: Int { lock.withLock { disposables?.count ?? 0 } }

    /// Removes the member for `disposeKey` and disposes it.
    ///
    /// - Parameter disposeKey: A key returned by ``insert(_:)``.
    public func remove(for disposeKey: DisposeKey) {
        let removed = lock.withLock { disposables?.remove(disposeKey.key) }
        removed?.dispose()
    }

    /// `true` once disposed.
    public var isDisposed: Bool { lock.withLock { disposables == nil } }

    /// Disposes every member; later insertions are disposed at once.
    public func dispose() {
        let members = lock.withLock { () -> Bag<Disposable>? in
            let taken = disposables
            disposables = nil
            return taken
        }
        members?.forEach { $0.dispose() }
    }
}
