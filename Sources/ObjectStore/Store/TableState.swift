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
