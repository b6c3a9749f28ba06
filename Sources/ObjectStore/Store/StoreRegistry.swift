/// The stores open in this process, by identifier (in memory) or by path (file): every
/// ``Store`` opened on the same identifier or file shares its ``StoreCore``. The registry holds
/// the cores weakly; one is gone when its last handle is.
///
/// One lock, a leaf of ``StoreCore``'s lock order: taken for a look-up or an insertion only.
enum StoreRegistry {
    /// The open cores by key, weakly; dead entries are dropped at each insertion.
    nonisolated(unsafe) private static var cores: [String: Weak] = [:]
    private static let lock = StoreLock(.leaf)
    private struct Weak { weak var core: StoreCore? }

    /// The core of the in-memory store `identifier`: the open one, or a new empty one.
    static func shared(identifier: String) -> StoreCore {
        lock.withLock {
            if let core = cores[identifier]?.core { return core }
            let core = StoreCore()
            insert(core, for: identifier)
            return core
        }
    }

    /// The core registered under `key`, if it is still open.
    static func core(for key: String) -> StoreCore? {
        lock.withLock { cores[key]?.core }
    }

    /// Registers `core` under `key` (replacing a dead entry, if any).
    static func register(_ core: StoreCore, for key: String) {
        lock.withLock { insert(core, for: key) }
    }

    /// With the lock held.
    private static func insert(_ core: StoreCore, for key: String) {
        cores[key] = Weak(core: core)
        cores = cores.filter { $0.value.core != nil }
    }
}
