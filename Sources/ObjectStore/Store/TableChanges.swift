import Foundation

/// What one commit did to one model's table, by primary key (net of the whole transaction).
struct TableChanges {
    var inserted: Set<StoreValue> = []
    var deleted: Set<StoreValue> = []
    /// Primary key → ordinals of the fields that changed.
    var modified: [StoreValue: ChangedFields] = [:]

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty }

    /// Records an insertion; `expected` is about how many objects the write adds in all, so
    /// the set is made that large once rather than grown step by step.
    mutating func recordInsert(_ key: StoreValue, fieldCount: Int, expected: Int = 1) {
        if inserted.isEmpty, expected > 1 { inserted.reserveCapacity(expected) }
        if !deleted.isEmpty, deleted.remove(key) != nil {
            modified[key] = ChangedFields(0..<fieldCount)
        } else {
            inserted.insert(key)
        }
    }

    /// Records an update of `fields`; `expected` as for ``recordInsert(_:fieldCount:expected:)``.
    mutating func recordUpdate(_ key: StoreValue, fields: [Int], expected: Int = 1) {
        if !inserted.isEmpty, inserted.contains(key) { return }
        if modified.isEmpty, expected > 1 { modified.reserveCapacity(expected) }
        modified[key, default: ChangedFields()].formUnion(fields)
    }

    mutating func recordDelete(_ key: StoreValue) {
        if inserted.remove(key) != nil { return }
        modified[key] = nil
        deleted.insert(key)
    }
}

/// The ordinals of the fields a commit changed in one object: the first 64 as bits (no
/// allocation per object), any further ones in a set.
struct ChangedFields: Equatable, Sendable {
    private var bits: UInt64 = 0
    private var more: Set<Int>?

    init() {}

    init<S: Sequence<Int>>(_ fields: S) { formUnion(fields) }

    mutating func formUnion<S: Sequence<Int>>(_ fields: S) {
        for field in fields {
            if field < 64 {
                bits |= 1 << UInt64(field)
            } else {
                more = (more ?? []).union([field])
            }
        }
    }

    func contains(_ field: Int) -> Bool { field < 64 ? bits & (1 << UInt64(field)) != 0 : more?.contains(field) ?? false }

    var isEmpty: Bool { bits == 0 && (more?.isEmpty ?? true) }

    /// The ordinals, ascending.
    func sorted() -> [Int] {
        var fields: [Int] = []
        var rest = bits
        while rest != 0 {
            fields.append(rest.trailingZeroBitCount)
            rest &= rest - 1
        }
        return fields + (more?.sorted() ?? [])
    }
}
