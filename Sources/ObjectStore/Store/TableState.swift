import Foundation
import Synchronization

/// One model's rows in one committed version.
///
/// Slots number the rows in insertion order. A table opened from a paged file (format 3 and
/// later) starts with a **base**: the snapshot's rows, read from the file when first used
/// (slots `0 ..< base.count`).
/// Everything written since lives here, in memory: base slots replaced or deleted (`changed`),
/// rows added after the base (`added`, slots from `base.count` on, deleted ones `nil`), and the
/// primary-key and secondary indexes of the rows held here. A table without a base (the
/// in-memory store, or a store file of an older format) holds all its rows in `added`.
struct TableState {
    let schema: ObjectSchema
    /// The rows of the snapshot the file was opened with, read in place.
    let base: PagedTable?
    /// Base slots replaced since the snapshot (kept encoded) or deleted.
    private(set) var changed = SlotChanges()
    /// Rows added after the base, from slot `baseCount` on; a deleted slot is `nil`. Like the
    /// indexes below, kept in parts a transaction's copy shares (`SharedParts.swift`), so a
    /// write of one object copies a part, not every row of an in-memory store.
    private(set) var added = ChunkedArray<Row?>()
    /// Primary key → slot, for the rows in `added` (base keys are looked up in the base).
    private(set) var pkIndex = ShardedDictionary<StoreValue, Int>()
    /// Field ordinal → value → slots, for the rows held here (`added`, and the replacements
    /// in `changed`); the base's own entries come from `base.slots(field:value:)`.
    private(set) var indexes: [Int: ShardedDictionary<StoreValue, [Int]>] = [:]
    /// The ordinals in `indexes`, kept apart so iterating them never holds a second reference
    /// to `indexes` while it is mutated (which would copy it on every write).
    let indexedFields: [Int]
    private(set) var liveCount = 0
    /// About how many bytes the rows added since the snapshot keep in memory.
    private(set) var addedBytes = 0
    /// How many slots the base holds.
    let baseCount: Int
    /// The ordered and link-target indexes of this version of the rows, built when first
    /// used; `nil` from the first change until the commit publishing it seals the table
    /// (queries on an unsealed table, inside a write, scan instead).
    private(set) var derived: DerivedIndexes?
    /// Whether the model has fields `derived` serves (an indexed plain field, a to-many link).
    let hasDerivedIndexes: Bool
    /// Which numbering of the rows the slots follow: kept by every version made from this one
    /// by writing rows (a row keeps its slot until it is deleted, new rows take new slots), a
    /// new one for a table made afresh — ``compactIfNeeded()``'s, which numbers the rows again.
    /// Slots listed from one version name the same rows in another only when the two tables
    /// have the same numbering.
    let slotNumbering: UInt64

    /// The last numbering handed out (see ``slotNumbering``).
    private static let numberings = Atomic<UInt64>(0)

    init(schema: ObjectSchema, base: PagedTable? = nil) {
        self.schema = schema
        self.base = base
        baseCount = base?.count ?? 0
        liveCount = baseCount
        var fields: [Int] = []
        for (i, f) in schema.fields.enumerated() where f.isIndexed && i != schema.primaryKeyIndex {
            indexes[i] = ShardedDictionary()
            fields.append(i)
        }
        indexedFields = fields
        hasDerivedIndexes = schema.fields.contains { f in
            if case .linkList = f.kind { return true }
            return f.isIndexed && OrderedIndex.supports(f.kind)
        }
        if hasDerivedIndexes { derived = DerivedIndexes() }
        slotNumbering = Self.numberings.add(1, ordering: .relaxed).newValue
    }

    /// Gives a changed table a fresh box of derived indexes (when it is published).
    mutating func seal() {
        if hasDerivedIndexes, derived == nil { derived = DerivedIndexes() }
    }

    /// About how many bytes the changes since the base keep in memory.
    var heldBytes: Int { changed.heldBytes + addedBytes }

    /// Whether every slot is still the base's (no row added or deleted since), so a snapshot
    /// can copy the base's pages.
    var keepsBaseSlots: Bool {
        guard let base else { return false }
        return added.isEmpty && liveCount == baseCount && base.storedSchema.layout == schema.layout
    }

    /// One past the last slot.
    var slotCount: Int { baseCount + added.count }

    /// The row in `slot`, `nil` when it was deleted (or, in a damaged base, cannot be read).
    @inline(__always)
    func row(_ slot: Int) -> Row? {
        if slot >= baseCount { return added[slot - baseCount] }
        if let change = changed[slot] { return change.row }
        return base!.row(slot)
    }

    /// The slot of the live row with this primary key. `sharing` is
    /// `PagedTable.row(_:sharing:)`'s: a writer passes `false`.
    @inline(__always)
    func slot(forKey key: StoreValue, sharing: Bool = true) -> Int? {
        if let slot = pkIndex[key] { return slot }
        guard let base, let slot = base.keyedRow(forKey: key, sharing: sharing)?.slot else { return nil }
        if case .deleted? = changed[slot] { return nil }
        return slot
    }

    /// What a `.modified` write of `row` would change in the live object with its primary key
    /// `key`: its slot and the fields that differ, or `nil` when no live object has the key (or
    /// its stored row is damaged, which is recorded). A row of the base, or one replaced since,
    /// is compared as encoded, in place: `encoded` then holds `row`'s encoding (see
    /// ``EncodedRow``), for ``replace(slot:with:encoded:)`` to keep.
    func modifiedFields(forKey key: StoreValue, row: Row, encoded: inout EncodedRow) -> (slot: Int, fields: [Int])? {
        if !pkIndex.isEmpty, let slot = pkIndex[key] {
            guard let old = self.row(slot) else { return nil }
            return (slot, (0..<row.count).filter { old[$0] != row[$0] })
        }
        guard let base, let (slot, keyPage) = base.listedSlot(forKey: key) else { return nil }
        encoded.encode(row)
        switch changed[slot] {
        case .deleted?:
            return nil
        case .replaced(let bytes)?:
            // Encoded by this process: it reads back.
            let fields = bytes.withUnsafeBytes { raw in
                do {
                    return try encoded.differingFields(row, stored: raw, from: 0, to: raw.count, checks: nil, optional: [])
                } catch {
                    preconditionFailure("ObjectStore: a row kept in memory does not decode: \(error)")
                }
            }
            return (slot, fields)
        case nil:
            return base.modifiedFields(slot: slot, keyPage: keyPage, row: row, encoded: encoded).map { (slot, $0) }
        }
    }

    @inline(__always)
    func row(forKey key: StoreValue) -> Row? {
        if let slot = pkIndex[key] { return row(slot) }
        // A base row, read once: the base checks it holds the key on the way.
        guard let base, let (slot, row) = base.keyedRow(forKey: key) else { return nil }
        if let change = changed[slot] { return change.row }   // replaced, or deleted (nil)
        return row
    }

    /// The slots whose `field` (an indexed one) holds `value`, in no particular order; `nil`
    /// when the field has no index.
    func slots(field: Int, value: StoreValue) -> [Int]? {
        guard let index = indexes[field] else { return nil }
        var slots = index[value] ?? []
        if let base {
            for slot in base.slots(field: field, value: value) where !changed.contains(slot) { slots.append(slot) }
        }
        return slots
    }

    /// Calls `body` with every live row in slot order.
    func forEachRow(_ body: (Int, Row) -> Void) {
        if let base {
            let hasChanges = !changed.isEmpty
            base.forEachSlot { slot, row in
                if hasChanges, let change = changed[slot] {
                    if let row = change.row { body(slot, row) }
                } else if let row {
                    body(slot, row)
                }
            }
        }
        added.forEachChunk { first, rows in
            for i in rows.indices { if let row = rows[i] { body(baseCount + first + i, row) } }
        }
    }

    /// The live slots in order, without decoding any row of the base: its pages are checked
    /// (once per open) and the slots whose rows cannot be read are left out (every slot of a
    /// page that does not read back, a row that does not fit the table).
    func liveSlots() -> [Int] {
        var slots: [Int] = []
        slots.reserveCapacity(liveCount)
        // Every slot listed must be readable: the base's pages are checked (once) first.
        if baseCount > 0 { base!.checkAllPages() }
        if baseCount > 0, base!.file.damage.error != nil {
            let unreadable = base!.knownUnreadable
            for slot in 0..<baseCount {
                if let change = changed[slot] {
                    if change != .deleted { slots.append(slot) }
                } else if !unreadable.pages.contains(slot / PagedTable.rowsPerPage), !unreadable.rows.contains(slot) {
                    slots.append(slot)
                }
            }
        } else if baseCount > 0 {
            if changed.isEmpty {
                slots.append(contentsOf: 0..<baseCount)
            } else {
                for slot in 0..<baseCount {
                    if case .deleted? = changed[slot] { continue }
                    slots.append(slot)
                }
            }
        }
        added.forEachChunk { first, rows in
            for i in rows.indices where rows[i] != nil { slots.append(baseCount + first + i) }
        }
        return slots
    }

    mutating func insert(_ row: Row) {
        derived = nil
        let slot = slotCount
        added.append(row)
        pkIndex[row[schema.primaryKeyIndex]] = slot
        liveCount += 1
        addedBytes += 32 * row.count + 64
        for field in indexedFields { indexes[field]![row[field], default: []].append(slot) }
    }

    /// Puts `row` in `slot` in place of its live row; `encoded`, when it holds `row`'s
    /// encoding, is kept as it is rather than encoding the row again.
    mutating func replace(slot: Int, with row: Row, encoded: EncodedRow? = nil) {
        derived = nil
        if slot >= baseCount {
            if !indexedFields.isEmpty, let old = added[slot - baseCount] {
                for field in indexedFields where old[field] != row[field] {
                    removeIndexEntry(field: field, value: old[field], slot: slot)
                    indexes[field]![row[field], default: []].append(slot)
                }
            }
            added[slot - baseCount] = row
            return
        }
        // A base slot: its base entries stop counting once it is in `changed` (so the base row
        // need not be read); a replacement made since the open is indexed here, and the new
        // row's values take its place.
        if !indexedFields.isEmpty, let old = changed[slot]?.row {
            for field in indexedFields { removeIndexEntry(field: field, value: old[field], slot: slot) }
        }
        for field in indexedFields { indexes[field]![row[field], default: []].append(slot) }
        if let encoded, encoded.holdsRow {
            changed.replace(slot, encoded: encoded.bytes)
        } else {
            changed.replace(slot, with: row)
        }
    }

    mutating func delete(slot: Int) {
        derived = nil
        if slot >= baseCount {
            guard let old = added[slot - baseCount] else { return }
            for field in indexedFields { removeIndexEntry(field: field, value: old[field], slot: slot) }
            pkIndex[old[schema.primaryKeyIndex]] = nil
            added[slot - baseCount] = nil
            liveCount -= 1
            return
        }
        if let change = changed[slot] {
            if change == .deleted { return }   // deleted already
            if !indexedFields.isEmpty, let old = change.row {
                for field in indexedFields { removeIndexEntry(field: field, value: old[field], slot: slot) }
            }
        }
        changed.delete(slot)
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

    // MARK: Ordered and link-target indexes

    /// The ordered index of `field` over the live rows, when the field is indexed and of a
    /// kind that has one, the table is sealed, and no damage was found in its base.
    func orderedIndex(field: Int) -> OrderedIndex? {
        guard let derived else { return nil }
        let kind = schema.fields[field].kind
        guard schema.fields[field].isIndexed, OrderedIndex.supports(kind), damage == nil else { return nil }
        return derived.ordered(field) {
            var slots: [Int] = [], keys: [StoreValue] = []
            let held = base == nil ? liveCount : changed.count + added.count
            slots.reserveCapacity(held)
            keys.reserveCapacity(held)
            changed.forEach { slot, change in
                if let key = change.row?[field] {
                    slots.append(slot)
                    keys.append(key)
                }
            }
            added.forEachChunk { first, rows in
                // Read in place: binding each row would retain it.
                for i in rows.indices {
                    if let key = rows[i]?[field] {
                        slots.append(baseCount + first + i)
                        keys.append(key)
                    }
                }
            }
            guard let held = OrderedIndex.build(slots: slots, keys: keys, kind: kind) else { return nil }
            guard let base else { return held }
            guard let baseIndex = base.orderedIndex(field: field, kind: kind) else { return nil }
            if changed.isEmpty, held.count == 0 { return baseIndex }
            return baseIndex.merged(with: held) { changed.contains($0) }
        }
    }

    /// The live slots (ascending) whose to-many link `field` lists one of `targets` (primary
    /// keys of the linked model); `nil` when the table is not sealed or its base is damaged.
    /// A slot is listed whether or not the target it links still exists.
    func linkSourceSlots(field: Int, targets: [StoreValue]) -> [Int]? {
        guard let derived, damage == nil else { return nil }
        let held = derived.linkSources(field) {
            linkTargetIndex(field: field) { body in forEachHeldRow(body) }
        }
        let baseIndex = base?.linkSources(field: field)
        var lists: [[Int]] = []
        for target in targets {
            if let found = held[target] { lists.append(found) }
            if let found = baseIndex?[target] {
                lists.append(changed.isEmpty ? found : found.filter { !changed.contains($0) })
            }
        }
        return mergeAscending(lists)
    }

    /// Calls `body` with the live rows held here (replacements of base rows, then added
    /// rows), in slot order.
    private func forEachHeldRow(_ body: (Int, Row) -> Void) {
        changed.forEach { slot, change in if let row = change.row { body(slot, row) } }
        added.forEachChunk { first, rows in
            for i in rows.indices { if let row = rows[i] { body(baseCount + first + i, row) } }
        }
    }

    /// Drops deleted slots when they outnumber live rows (keeps insertion order, numbers the
    /// rows again: the table gets a new ``slotNumbering``). A table with a base keeps its
    /// slots: the base's are fixed until the next snapshot.
    mutating func compactIfNeeded() {
        guard base == nil else { return }
        let dead = added.count - liveCount
        guard dead > 64, dead > liveCount else { return }
        var fresh = TableState(schema: schema)
        fresh.added.reserveCapacity(liveCount)
        added.forEachChunk { _, rows in
            for row in rows { if let row { fresh.insert(row) } }
        }
        self = fresh
    }

    mutating func reserveCapacity(_ n: Int) { added.reserveCapacity(added.count + n) }

    /// Checks that the indexes agree with the rows (for tests).
    func checkInvariants() -> Bool {
        var live = 0
        var ok = true
        var seen = 0
        forEachRow { slot, row in
            seen += 1
            live += 1
            if self.slot(forKey: row[schema.primaryKeyIndex]) != slot { ok = false }
            for field in indexedFields where !(slots(field: field, value: row[field])?.contains(slot) ?? false) { ok = false }
        }
        if !ok || live != liveCount { return false }
        if base == nil, pkIndex.count != live { return false }
        for field in indexedFields {
            var entries = 0
            indexes[field]!.forEach { _, slots in entries += slots.count }
            if base == nil, entries != live { return false }
        }
        return seen == live
    }
}

extension TableState {
    /// The rows in `slots`, in that order, which must all be live. A row of the base that
    /// cannot be read (its page is damaged) is left out, so the result may be shorter.
    func rows(at slots: [Int]) -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(slots.count)
        if base == nil {
            for slot in slots { rows.append(added[slot - baseCount]!) }
        } else {
            for slot in slots { if let row = row(slot) { rows.append(row) } }
        }
        return rows
    }

    /// The rows in `slots`, in that order; a slot whose row cannot be read (a damaged page of
    /// the base) is dropped from `slots`, so the two stay aligned.
    func rows(at slots: inout [Int]) -> [Row] {
        if base == nil { return rows(at: slots) }
        var rows: [Row] = []
        rows.reserveCapacity(slots.count)
        var kept = 0
        for slot in slots {
            guard let row = row(slot) else { continue }
            rows.append(row)
            slots[kept] = slot
            kept += 1
        }
        slots.removeSubrange(kept...)
        return rows
    }

    /// The damage found in the base's file, if any.
    var damage: StoreError? { base?.file.damage.error }
}
