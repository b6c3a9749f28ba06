/// A least-recently-used cache bounded by a total cost. Not thread-safe: the owner locks.
///
/// Lookups and insertions are O(1): a dictionary of nodes threaded on a doubly linked list
/// ordered from most to least recently used.
struct MemoryCache<Key: Hashable, Value> {
    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        weak var newer: Node?
        weak var older: Node?
        init(key: Key, value: Value, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    /// The largest total cost kept.
    let costLimit: Int
    private(set) var totalCost = 0
    private var nodes: [Key: Node] = [:]
    /// Most recently used.
    private var newest: Node?
    /// Least recently used. Nodes are owned by `nodes` alone; the links are weak.
    private var oldest: Node?

    init(costLimit: Int) {
        precondition(costLimit >= 0, "costLimit must not be negative")
        self.costLimit = costLimit
    }

    var count: Int { nodes.count }

    /// The keys from most to least recently used (for tests).
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var node = newest
        while let current = node {
            keys.append(current.key)
            node = current.older
        }
        return keys
    }

    /// The value for `key`, marking it most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        unlink(node)
        pushNewest(node)
        return node.value
    }

    /// Stores `value`; evicts least recently used entries until the total cost fits. A value
    /// costing more than the whole limit is not kept.
    mutating func insert(_ value: Value, cost: Int, for key: Key) {
        let cost = max(cost, 0)
        if let existing = nodes[key] {
            unlink(existing)
            nodes[key] = nil
            totalCost -= existing.cost
        }
        guard cost <= costLimit else { return }
        let node = Node(key: key, value: value, cost: cost)
        nodes[key] = node
        pushNewest(node)
        totalCost += cost
        while totalCost > costLimit, let victim = oldest {
            unlink(victim)
            nodes[victim.key] = nil
            totalCost -= victim.cost
        }
    }

    mutating func removeValue(for key: Key) {
        guard let node = nodes.removeValue(forKey: key) else { return }
        unlink(node)
        totalCost -= node.cost
    }

    mutating func removeAll() {
        nodes = [:]
        newest = nil
        oldest = nil
        totalCost = 0
    }

    private mutating func pushNewest(_ node: Node) {
        node.older = newest
        node.newer = nil
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }

    private mutating func unlink(_ node: Node) {
        let older = node.older
        let newer = node.newer
        if let older { older.newer = newer } else { oldest = newer }
        if let newer { newer.older = older } else { newest = older }
        node.older = nil
        node.newer = nil
    }
}
