import Foundation

/// One model's rows in one committed version: a slot array (deleted slots are `nil`, so
/// slot order is insertion order), the primary-key index and the secondary indexes.
struct TableState {
    let schema: ObjectSchema
    var rows: [Row?] = []
    var pkIndex: [StoreValue: Int] = [:]
    /// field ordinal → value → slots holding it.
    var indexes: [Int: [StoreValue: [Int]]] = [:]
    /// The ordinals in `indexes`, kept apart so iterating them never holds a second reference
    /// to `indexes` while it is mutated (which would copy it on every write).
    let indexedFields: [Int]
    var liveCount = 0

    init(schema: ObjectSchema) {
        self.schema = schema
        var fields: [Int] = []
        for (i, f) in schema.fields.enumerated() where f.isIndexed && i != schema.primaryKeyIndex {
            indexes[i] = [:]
            fields.append(i)
        }
        indexedFields = fields
    }

    @inline(__always)
    func row(forKey key: StoreValue) -> Row? {
        guard let slot = pkIndex[key] else { return nil }
        return rows[slot]
    }

    mutating func insert(_ row: Row) {
        let slot = rows.count
        rows.append(row)
        pkIndex[row[schema.primaryKeyIndex]] = slot
        liveCount += 1
        for field in indexedFields { indexes[field]![row[field], default: []].append(slot) }
    }

    mutating func replace(slot: Int, with row: Row) {
        if !indexes.isEmpty, let old = rows[slot] {
            for field in indexedFields where old[field] != row[field] {
                removeIndexEntry(field: field, value: old[field], slot: slot)
                indexes[field]![row[field], default: []].append(slot)
            }
        }
        rows[slot] = row
    }

    mutating func delete(slot: Int) {
        guard let old = rows[slot] else { return }
        for field in indexedFields { removeIndexEntry(field: field, value: old[field], slot: slot) }
        pkIndex[old[schema.primaryKeyIndex]] = nil
        rows[slot] = nil
        liveCount -= 1
    }

    private mutating func removeIndexEntry(field: Int, value: StoreValue, slot: Int) {
        guard let slots = indexes[field]![value] else { return }
        if slots.count == 1 {
            if slots[0] == slot { indexes[field]![value] = nil }
            return
        }
        indexes[field]![value]!.removeAll { $0 == slot }
    }

    /// Drops deleted slots when they outnumber live rows (keeps insertion order).
    mutating func compactIfNeeded() {
        let dead = rows.count - liveCount
        guard dead > 64, dead > liveCount else { return }
        let live = rows.compactMap { $0 }
        var fresh = TableState(schema: schema)
        fresh.rows.reserveCapacity(live.count)
        for row in live { fresh.insert(row) }
        self = fresh
    }

    /// Checks that the indexes agree with the rows (for tests).
    func checkInvariants() -> Bool {
        var live = 0
        for (slot, row) in rows.enumerated() {
            guard let row else { continue }
            live += 1
            if pkIndex[row[schema.primaryKeyIndex]] != slot { return false }
            for (field, index) in indexes where !(index[row[field]]?.contains(slot) ?? false) { return false }
        }
        if live != liveCount || pkIndex.count != live { return false }
        for index in indexes.values where index.values.reduce(0, { $0 + $1.count }) != live { return false }
        return true
    }
}

/// An immutable committed version of the whole store. Readers hold one for as long as they
/// read, so they never see half of a write.
final class Snapshot: @unchecked Sendable {
    let version: Int
    let tables: [String: TableState]

    init(version: Int, tables: [String: TableState]) {
        self.version = version
        self.tables = tables
    }

    func table(_ schema: ObjectSchema) -> TableState? {
        guard let table = tables[schema.name] else { return nil }
        if table.schema !== schema { checkLayout(stored: table.schema, code: schema) }
        return table
    }
}

/// Traps when a model's fields no longer match the rows a store file holds for it (a model
/// changed without a migration and not listed in `objectTypes`, so the open could not catch it).
@inline(__always)
func checkLayout(stored: ObjectSchema, code: ObjectSchema) {
    if stored.layout != code.layout {
        preconditionFailure("""
            ObjectStore: the store holds \(code.name) objects with fields (\(stored.layoutDescription)) \
            but the model now has (\(code.layoutDescription)). List \(code.name) in the configuration's \
            objectTypes and raise schemaVersion (with a migration) so the store can migrate them.
            """)
    }
}

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
