import Foundation

/// What one commit did to one model's table, by primary key (net of the whole transaction).
struct TableChanges {
    var inserted: Set<StoreValue> = []
    var deleted: Set<StoreValue> = []
    /// Primary key → ordinals of the fields that changed.
    var modified: [StoreValue: Set<Int>] = [:]

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty }

    /// Records an insertion; `expected` is about how many objects the write adds in all, so
    /// the set is made that large once rather than grown step by step.
    mutating func recordInsert(_ key: StoreValue, fieldCount: Int, expected: Int = 1) {
        if inserted.isEmpty, expected > 1 { inserted.reserveCapacity(expected) }
        if !deleted.isEmpty, deleted.remove(key) != nil {
            modified[key] = Set(0..<fieldCount)
        } else {
            inserted.insert(key)
        }
    }

    /// Records an update of `fields`; `expected` as for ``recordInsert(_:fieldCount:expected:)``.
    mutating func recordUpdate(_ key: StoreValue, fields: [Int], expected: Int = 1) {
        if !inserted.isEmpty, inserted.contains(key) { return }
        if modified.isEmpty, expected > 1 { modified.reserveCapacity(expected) }
        modified[key, default: Set(minimumCapacity: fields.count)].formUnion(fields)
    }

    mutating func recordDelete(_ key: StoreValue) {
        if inserted.remove(key) != nil { return }
        modified[key] = nil
        deleted.insert(key)
    }
}
