import Foundation

/// A row about to replace a stored one, encoded once: the bytes a row page (or a table's
/// replaced rows) holds for it, and where each field's encoding ends. A `.modified` write
/// compares these bytes with the stored row's in place, without building the stored row, and
/// a replacement keeps the same bytes.
struct EncodedRow {
    var bytes: [UInt8] = []
    /// `ends[0]` is where the field count ends; `ends[i + 1]` where field `i` ends.
    var ends: [Int] = []
    /// Whether `bytes` hold the row of the write under way (set by ``encode(_:)``).
    var holdsRow = false

    /// Encodes `row` in place of what was held (keeping the buffers' capacity).
    mutating func encode(_ row: Row) {
        var w = ByteWriter()
        swap(&w.bytes, &bytes)
        w.bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        w.count(row.count)
        ends.append(w.bytes.count)
        for value in row {
            w.value(value)
            ends.append(w.bytes.count)
        }
        swap(&w.bytes, &bytes)
        holdsRow = true
    }

    /// The fields of `row` (encoded here by ``encode(_:)``) whose values differ from those of
    /// the stored row `stored[start..<end]`.
    ///
    /// A field whose bytes are the same holds an equal value (a value's encoding is a function
    /// of it, and reads back as it) unless ``StoreValue/readsBackUnequal`` says otherwise; any
    /// other field is read and compared as a value (`0.0` and `-0.0`, or two spellings of one
    /// Unicode string, are equal values with different bytes). So the fields are exactly those
    /// a comparison of the decoded rows (`old[i] != row[i]`) finds.
    ///
    /// - Parameters:
    ///   - checks: When given (a row read from the file), each stored value is checked as a
    ///     read of the row checks it, and `optional` says which fields may be null.
    /// - Throws: `FileFormatError` or `ValueCheck.Mismatch` when the stored bytes are not a
    ///   row of `row.count` values that fit the checks.
    func differingFields(_ row: Row, stored: UnsafeRawBufferPointer, from start: Int, to end: Int,
                         checks: [ValueCheck]?, optional: [Bool]) throws -> [Int] {
        var fields: [Int] = []
        var r = ByteReader(stored, from: start, to: end)
        let n = try r.count()
        guard n == row.count else { throw FileFormatError("a row has \(n) fields, not \(row.count)") }
        try bytes.withUnsafeBytes { mine in
            for i in 0..<n {
                let first = r.position
                if let checks {
                    try r.skipValue(checks[i], optional: optional[i])
                } else {
                    try r.skipValue(.any, optional: true)
                }
                let length = r.position - first
                let myFirst = ends[i]
                let same = length == ends[i + 1] - myFirst
                    && memcmp(stored.baseAddress! + first, mine.baseAddress! + myFirst, length) == 0
                if same, !row[i].readsBackUnequal {
                    continue
                } else {
                    var v = ByteReader(stored, from: first, to: r.position)
                    if try v.value() != row[i] { fields.append(i) }
                }
            }
        }
        guard r.isAtEnd else { throw FileFormatError("\(end - r.position) unexpected bytes after a row") }
        return fields
    }
}

extension PagedTable {
    /// For a `.modified` write of `row` (in `encoded`, see ``EncodedRow``) over the object with
    /// its key in slot `slot` (listed by key page `keyPage`): the fields that differ from the
    /// stored row, compared with its bytes in place (the row is not decoded, nor kept in the
    /// cache). The stored row is checked as ``row(_:)`` checks it, and must hold the key as
    /// ``keyedRow(forKey:)`` says; `nil` when it is damaged or does not (the damage recorded).
    func modifiedFields(slot: Int, keyPage: Int, row: Row, encoded: EncodedRow) -> [Int]? {
        let page = slot / Self.rowsPerPage
        let index = slot - page * Self.rowsPerPage
        guard let entry = file.withLock({ entry(rowPage: page) }) else { return nil }   // damaged (recorded)
        let fields: [Int]
        do {
            fields = try entry.bytes.withUnsafeBytes { raw in
                try encoded.differingFields(row, stored: raw, from: entry.offsets[index], to: entry.offsets[index + 1],
                                            checks: checks, optional: optionalFields)
            }
        } catch {
            // Read as a read of the row would: the same damage is reported (a row that does
            // read is not kept in the page, as for any row a writer decodes).
            let decoded = Result { try decodeRow(index, of: entry) }
            guard case .success(let old) = decoded else {
                _ = file.withLock { keep(decoded, index, in: entry, page: page) }
                return nil
            }
            fields = (0..<row.count).filter { old[$0] != row[$0] }
        }
        guard !fields.contains(storedSchema.primaryKeyIndex) else {
            // The row does not hold the key the key page lists it under.
            file.damage.record(.corrupted(offset: keyPages[keyPage].offset,
                                          reason: "a \(storedSchema.name) key page names slot \(slot) for a key its row does not hold"))
            return nil
        }
        return fields
    }
}

extension StoreValue {
    /// Whether the value, encoded and read back, might not equal itself: a NaN (a double or a
    /// date) equals nothing, and a decimal is stored as its text. Such a value is compared as
    /// read back, never by its bytes alone.
    var readsBackUnequal: Bool {
        switch self {
        case .null, .bool, .int, .string, .data, .uuid: return false
        case .double(let d): return d.isNaN
        case .date(let d): return d.timeIntervalSinceReferenceDate.isNaN
        case .decimal: return true
        case .list(let items): return items.contains { $0.readsBackUnequal }
        case .map(let entries): return entries.values.contains { $0.readsBackUnequal }
        }
    }
}
