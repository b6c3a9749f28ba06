import Foundation

/// What one commit did to one model's table, by primary key (net of the whole transaction).
struct TableChanges {
    var inserted: Set<StoreValue> = []
    var deleted: Set<StoreValue> = []
    /// Primary key → ordinals of the fields that changed.
    var modified: [StoreValue: Set<Int>] = [:]

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty }

    mutating func recordInsert(_ key: StoreValue, fieldCount: Int) {
        if deleted.remove(key) != nil {
            modified[key] = Set(0..<fieldCount)
        } else {
            inserted.insert(key)
        }
    }

    mutating func recordUpdate(_ key: StoreValue, fields: [Int]) {
        if !inserted.isEmpty, inserted.contains(key) { return }
        modified[key, default: Set(minimumCapacity: fields.count)].formUnion(fields)
    }

    mutating func recordDelete(_ key: StoreValue) {
        if inserted.remove(key) != nil { return }
        modified[key] = nil
        deleted.insert(key)
    }
}
