/// An insertion-ordered collection of values addressed by keys that are never reused.
/// Removal is O(n) in the number of values, which stays small for observers of one subject.
struct Bag<Value> {
    typealias Key = UInt64

    private var nextKey: Key = 0
    private(set) var entries: ContiguousArray<(key: Key, value: Value)> = []

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    mutating func insert(_ value: Value) -> Key {
        let key = nextKey
        nextKey &+= 1
        entries.append((key, value))
        return key
    }

    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: index).value
    }

    mutating func removeAll() { entries.removeAll() }

    func forEach(_ body: (Value) -> Void) {
        for entry in entries { body(entry.value) }
    }
}
