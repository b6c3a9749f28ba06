import Foundation

/// A secondary index stored in a format 4 or 5 snapshot: the index pages of one indexed field, in
/// entry order, and the first value of each (so a lookup reads only the pages holding its value).
struct StoredIndex: Sendable {
    /// The field's ordinal in the table's stored definition.
    let field: Int
    let pages: [PageRef]
    /// The value of each page's first entry, in entry order.
    let firstValues: [StoreValue]
}

/// The order of a stored index's entries (ties broken by slot): numbers and dates by value
/// (NaN after every number), everything else as primary keys are ordered (`keyCompare`). Two
/// values compare equal exactly when they are equal as `StoreValue`s, NaN aside (which equals
/// nothing, so a lookup never finds it, as with an index held in memory).
func indexCompare(_ a: StoreValue, _ b: StoreValue) -> Int {
    switch (a, b) {
    case (.double(let x), .double(let y)): return numericCompare(x, y)
    case (.date(let x), .date(let y)): return numericCompare(x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
    default: return keyCompare(a, b)
    }
}

private func numericCompare(_ x: Double, _ y: Double) -> Int {
    if x < y { return -1 }
    if x > y { return 1 }
    if x == y { return 0 }
    if x.isNaN { return y.isNaN ? 0 : 1 }
    return -1
}

// Formats 4 and 5: the index pages of a snapshot (the grammar is on `FileFormat`).
extension FileFormat {
    /// Entries per index page (fewer in an index's last page).
    static let indexEntriesPerPage = 512

    /// The fields whose index a snapshot of `schema` stores: every indexed field but the
    /// primary key (its key pages are its index).
    static func storedIndexFields(_ schema: ObjectSchema) -> [Int] {
        schema.fields.indices.filter { schema.fields[$0].isIndexed && $0 != schema.primaryKeyIndex }
    }

    /// The indexed values of a table's rows as the snapshot writer meets them, in slot order.
    struct IndexEntries {
        let fields: [Int]
        private(set) var values: [[StoreValue]]

        init(_ schema: ObjectSchema, capacity: Int) {
            fields = FileFormat.storedIndexFields(schema)
            values = fields.map { _ in
                var column: [StoreValue] = []
                column.reserveCapacity(capacity)
                return column
            }
        }

        /// Adds the next slot's row.
        mutating func add(_ row: Row) {
            for i in fields.indices { values[i].append(row[fields[i]]) }
        }
    }

    /// Writes the index pages of one table: for each field, its `(value, slot)` entries in
    /// `indexCompare` order, then slot order, `indexEntriesPerPage` to a page. `place` appends a
    /// page record to the snapshot and returns the file offset it was placed at.
    static func writeIndexPages(_ entries: IndexEntries, place: ([UInt8]) throws -> Int) throws -> [StoredIndex] {
        var stored: [StoredIndex] = []
        for (i, field) in entries.fields.enumerated() {
            let values = entries.values[i]
            let order = entryOrder(values)
            var pages: [PageRef] = [], firstValues: [StoreValue] = []
            var first = 0
            while first < order.count {
                let n = min(indexEntriesPerPage, order.count - first)
                var page = ByteWriter()
                let start = begin(.indexPage, into: &page)
                writeItems(n, into: &page) { w, k in
                    w.value(values[order[first + k]])
                    w.count(order[first + k])
                }
                try finish(&page, start: start)
                let at = try place(page.bytes)
                pages.append(PageRef(offset: at, length: page.bytes.count - recordHeaderSize))
                firstValues.append(values[order[first]])
                first += n
            }
            stored.append(StoredIndex(field: field, pages: pages, firstValues: firstValues))
        }
        return stored
    }

    /// The slots `0 ..< values.count` ordered by value (`indexCompare`), then slot.
    private static func entryOrder(_ values: [StoreValue]) -> [Int] {
        if values.allSatisfy({ if case .int = $0 { return true } else { return false } }) {
            // Integers: the ordered index's radix sort gives exactly this order.
            return OrderedIndex.build(slots: Array(values.indices), keys: values, kind: .int)!.slots
        }
        return values.indices.sorted { a, b in
            let c = indexCompare(values[a], values[b])
            return c != 0 ? c < 0 : a < b
        }
    }

    /// The directory's list of a table's stored indexes:
    /// `indexCount varint, (field varint, pageCount varint, (offset u64, length u32, firstValue value) × pageCount) × indexCount`.
    static func writeIndexDirectory(_ indexes: [StoredIndex], into w: inout ByteWriter) {
        w.count(indexes.count)
        for index in indexes {
            w.count(index.field)
            w.count(index.pages.count)
            for (page, value) in zip(index.pages, index.firstValues) {
                w.u64(UInt64(page.offset))
                w.u32(UInt32(page.length))
                w.value(value)
            }
        }
    }

    /// Reads a table's list of stored indexes from its directory entry, checking that each
    /// names a field of the definition other than the primary key, once, has the pages its row count needs, lies
    /// in the snapshot (`pagesWithin`), and lists its pages' first values in order.
    static func readIndexDirectory(_ r: inout ByteReader, schema: ObjectSchema, rowCount: Int,
                                   pagesWithin: Range<Int>) throws -> [StoredIndex] {
        let n = try r.count(minimumSize: 2)
        var indexes: [StoredIndex] = []
        let needed = (rowCount + indexEntriesPerPage - 1) / indexEntriesPerPage
        for _ in 0..<n {
            let field = try r.count()
            // (Whether the field is indexed is the model's business: the code may have added or
            // dropped an index since, which changes no row. An index no longer wanted is unused.)
            guard field < schema.fields.count, field != schema.primaryKeyIndex, !indexes.contains(where: { $0.field == field }) else {
                throw FileFormatError("table \(schema.name) lists an index of field \(field) it cannot have")
            }
            let pageCount = try r.count(minimumSize: 13)
            guard pageCount == needed else {
                throw FileFormatError("table \(schema.name) has \(rowCount) rows in \(pageCount) index pages of field \(field)")
            }
            var pages: [PageRef] = [], firstValues: [StoreValue] = []
            for _ in 0..<pageCount {
                let offset = try r.u64()
                let length = Int(try r.u32())
                guard offset >= UInt64(pagesWithin.lowerBound), offset < UInt64(pagesWithin.upperBound), length >= 1,
                      length <= maxRecordLength, Int(offset) + recordHeaderSize + length <= pagesWithin.upperBound else {
                    throw FileFormatError("table \(schema.name) names an index page outside its snapshot")
                }
                let value = try r.value()
                if let last = firstValues.last, indexCompare(last, value) > 0 {
                    throw FileFormatError("table \(schema.name)'s index pages of field \(field) are out of order")
                }
                pages.append(PageRef(offset: Int(offset), length: length))
                firstValues.append(value)
            }
            indexes.append(StoredIndex(field: field, pages: pages, firstValues: firstValues))
        }
        return indexes
    }

    /// Decodes the entries of an index page (the whole record, checked), checking that each is
    /// a value and a slot below `slotCount`, in entry order after `previous`.
    static func indexEntries(_ bytes: [UInt8], at offset: Int, slotCount: Int,
                             after previous: (value: StoreValue, slot: Int)?) throws -> [(value: StoreValue, slot: Int)] {
        let offsets = try pageOffsets(bytes, at: offset, expected: nil)
        var entries: [(value: StoreValue, slot: Int)] = []
        entries.reserveCapacity(offsets.count - 1)
        var last = previous
        do {
            try bytes.withUnsafeBytes { raw in
                for i in 0..<offsets.count - 1 {
                    var r = ByteReader(raw, from: offsets[i], to: offsets[i + 1])
                    let value = try r.value()
                    let slot = try r.varint()
                    guard r.isAtEnd, slot < UInt64(slotCount) else { throw FileFormatError("an index entry is not a value and a slot") }
                    if let last {
                        let c = indexCompare(last.value, value)
                        guard c < 0 || (c == 0 && last.slot < Int(slot)) else { throw FileFormatError("index entries out of order") }
                    }
                    last = (value, Int(slot))
                    entries.append((value, Int(slot)))
                }
            }
        } catch let error as FileFormatError {
            throw StoreError.corrupted(offset: offset, reason: error.reason)
        }
        return entries
    }

    /// Reads every page of a table's stored indexes and checks them against the rows: each
    /// page starts with its directory value, the entries are in order, and every row appears
    /// once, with its field's value (the check at open of a small snapshot).
    static func checkStoredIndexesWhole(_ base: PagedTable) throws {
        for index in base.storedIndexes {
            var seen = [Bool](repeating: false, count: base.count)
            var previous: (value: StoreValue, slot: Int)?
            for (p, ref) in index.pages.enumerated() {
                let bytes = try base.file.readPage(ref, kind: .indexPage)
                let entries = try indexEntries(bytes, at: ref.offset, slotCount: base.count, after: previous)
                guard let first = entries.first, indexCompare(first.value, index.firstValues[p]) == 0 else {
                    throw StoreError.corrupted(offset: ref.offset, reason: "an index page of \(base.storedSchema.name) does not start with its directory value")
                }
                for entry in entries {
                    guard !seen[entry.slot], let row = base.row(entry.slot), indexCompare(row[index.field], entry.value) == 0 else {
                        throw StoreError.corrupted(offset: ref.offset, reason: "an index entry of \(base.storedSchema.name) does not hold its row's value")
                    }
                    seen[entry.slot] = true
                }
                previous = entries.last
            }
            if let damage = base.file.damage.error { throw damage }
            guard !seen.contains(false) else {
                throw StoreError.corrupted(offset: index.pages.first?.offset ?? 0,
                                           reason: "an index of \(base.storedSchema.name) leaves rows out")
            }
        }
    }
}
