import Foundation

/// One change in a commit, in the order it happened. A commit's records are what a
/// file-backed store appends to its log (every case is `Codable`).
enum ChangeRecord: Codable, Equatable {
    /// A new object (the whole row).
    case insert(table: String, row: [StoreValue])
    /// Changed fields of an existing object.
    case update(table: String, key: StoreValue, fields: [Int], values: [StoreValue])
    /// A deleted object.
    case delete(table: String, key: StoreValue)
}

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
        if inserted.contains(key) { return }
        modified[key, default: []].formUnion(fields)
    }

    mutating func recordDelete(_ key: StoreValue) {
        if inserted.remove(key) != nil { return }
        modified[key] = nil
        deleted.insert(key)
    }
}

/// Everything one commit changed.
struct CommitInfo {
    let old: Snapshot
    let new: Snapshot
    let tables: [String: TableChanges]
    let log: [ChangeRecord]
}
