import Foundation

/// Format 5's row pages: a page's values laid out by field, not by row, so a check of every
/// page (a first count or listing) tests each field's values a stream at a time — its tags
/// compared a word at a time, its integers counted by their stop bits, its strings' lengths
/// summed — instead of walking each row value by value.
///
///     row page (kind 6) := rowCount varint, fieldCount varint,
///                          (headsEnd u32, tailsEnd u32) × fieldCount, field × fieldCount
///     field             := tag u8 × rowCount, heads, tails
///
/// Offsets count from the first byte after the table of ends; field `f` starts where field
/// `f - 1` ends (`tailsEnd`), its heads start after its `rowCount` tags and end at `headsEnd`.
/// Each row's value of the field is its tag, then, by tag: nothing (null, false, true); a
/// varint head (int); an 8-byte head (double, date); a 16-byte head (UUID); a varint length
/// head and that many tail bytes (string, data, decimal); a tail of the value's body as a
/// row-laid page holds it after its tag (list, map).
///
/// The store works with rows laid out one after another (``rowMajor(_:from:expected:)``), as
/// format 4 stores them: a page is turned round once, when read into the cache.
enum FieldLaidRows {
    // MARK: Writing

    /// Appends the body of a row page (what follows its kind byte) holding `count` rows, each
    /// given as its row-laid encoding (a field count of `fieldCount`, then one value per field).
    ///
    /// - Throws: `FileFormatError` when a row's bytes are not `fieldCount` values (a damaged
    ///   page copied into a new snapshot): nothing is written then.
    static func write(_ count: Int, fieldCount: Int, into w: inout ByteWriter, row: (Int) -> ArraySlice<UInt8>) throws {
        var tags = [[UInt8]](repeating: [], count: fieldCount)
        var heads = [[UInt8]](repeating: [], count: fieldCount)
        var tails = [[UInt8]](repeating: [], count: fieldCount)
        for f in 0..<fieldCount { tags[f].reserveCapacity(count) }
        for i in 0..<count {
            let bytes = row(i)
            try bytes.withUnsafeBytes { raw in
                var r = ByteReader(raw, from: 0, to: raw.count)
                guard try r.count() == fieldCount else { throw FileFormatError("a row does not have \(fieldCount) fields") }
                for f in 0..<fieldCount {
                    let tag = try r.u8()
                    tags[f].append(tag)
                    let start = r.position
                    switch tag {
                    case ByteWriter.tagNull, ByteWriter.tagFalse, ByteWriter.tagTrue:
                        break
                    case ByteWriter.tagInt:
                        _ = try r.varint()
                        heads[f].append(contentsOf: raw[start..<r.position])
                    case ByteWriter.tagDouble, ByteWriter.tagDate:
                        _ = try r.u64()
                        heads[f].append(contentsOf: raw[start..<r.position])
                    case ByteWriter.tagUUID:
                        _ = try r.bytes(16)
                        heads[f].append(contentsOf: raw[start..<r.position])
                    case ByteWriter.tagString, ByteWriter.tagData, ByteWriter.tagDecimal:
                        let n = try r.count()
                        heads[f].append(contentsOf: raw[start..<r.position])
                        tails[f].append(contentsOf: try r.bytes(n))
                    default:
                        try skipBody(tag, &r, depth: 0)
                        tails[f].append(contentsOf: raw[start..<r.position])
                    }
                }
                guard r.isAtEnd else { throw FileFormatError("unexpected bytes after a row") }
            }
        }
        w.count(count)
        w.count(fieldCount)
        var end = 0
        for f in 0..<fieldCount {
            end += tags[f].count + heads[f].count
            w.u32(UInt32(end))
            end += tails[f].count
            w.u32(UInt32(end))
        }
        for f in 0..<fieldCount {
            w.bytes.append(contentsOf: tags[f])
            w.bytes.append(contentsOf: heads[f])
            w.bytes.append(contentsOf: tails[f])
        }
    }

    /// Moves `r` past the body of a value whose tag was read, framed as
    /// `ByteReader.value(depth:)` frames it (the values inside are not checked here: the rows
    /// this gives back are read by the row decoder, which checks them).
    private static func skipBody(_ tag: UInt8, _ r: inout ByteReader, depth: Int) throws {
        guard depth < 64 else { throw FileFormatError("values nest too deeply") }
        switch tag {
        case ByteWriter.tagNull, ByteWriter.tagFalse, ByteWriter.tagTrue: return
        case ByteWriter.tagInt: _ = try r.varint()
        case ByteWriter.tagDouble, ByteWriter.tagDate: _ = try r.u64()
        case ByteWriter.tagString, ByteWriter.tagData, ByteWriter.tagDecimal: _ = try r.bytes(try r.count())
        case ByteWriter.tagUUID: _ = try r.bytes(16)
        case ByteWriter.tagList:
            let n = try r.count()
            for _ in 0..<n { try skipBody(try r.u8(), &r, depth: depth + 1) }
        case ByteWriter.tagMap:
            let n = try r.count(minimumSize: 2)
            for _ in 0..<n {
                _ = try r.bytes(try r.count())
                try skipBody(try r.u8(), &r, depth: depth + 1)
            }
        default:
            throw FileFormatError("unknown value tag \(tag)")
        }
    }

    // MARK: Reading

    /// Where a page's fields lie: its row and field counts, and each field's tags, heads and
    /// tails as indices into the record.
    struct Sections {
        let rows: Int
        let fields: Int
        /// The table of ends (`2 * fields` u32s) starts here; field 0 starts at `itemsStart`.
        let table: Int
        let itemsStart: Int

        /// Reads the counts and the table of ends of a row page whose body starts at `start`
        /// in `record`; `nil` when they do not hold up (counts, ends that fall or leave the
        /// record, a last end that is not the record's end).
        init?(_ record: UnsafeRawBufferPointer, from start: Int, expected: Int) {
            var r = ByteReader(record, from: start, to: record.count)
            guard let rows = try? r.count(), rows == expected, rows >= 1,
                  let fields = try? r.count(minimumSize: 8), fields >= 1 else { return nil }
            self.rows = rows
            self.fields = fields
            table = r.position
            itemsStart = table + 8 * fields
            var last = itemsStart
            for f in 0..<fields {
                let heads = itemsStart &+ Int(record.loadUnaligned(fromByteOffset: table + 8 * f, as: UInt32.self).littleEndian)
                let tails = itemsStart &+ Int(record.loadUnaligned(fromByteOffset: table + 8 * f + 4, as: UInt32.self).littleEndian)
                guard rows <= heads &- last, heads <= tails, tails <= record.count else { return nil }
                last = tails
            }
            guard last == record.count else { return nil }
        }

        /// Field `f`'s tags start here (its heads `rows` bytes later).
        func start(_ f: Int, _ record: UnsafeRawBufferPointer) -> Int {
            f == 0 ? itemsStart : itemsStart + Int(record.loadUnaligned(fromByteOffset: table + 8 * (f - 1) + 4, as: UInt32.self).littleEndian)
        }

        func headsEnd(_ f: Int, _ record: UnsafeRawBufferPointer) -> Int {
            itemsStart + Int(record.loadUnaligned(fromByteOffset: table + 8 * f, as: UInt32.self).littleEndian)
        }

        func tailsEnd(_ f: Int, _ record: UnsafeRawBufferPointer) -> Int {
            itemsStart + Int(record.loadUnaligned(fromByteOffset: table + 8 * f + 4, as: UInt32.self).littleEndian)
        }
    }

    /// The page's rows laid out one after another, as a format 4 page holds them: the bytes of
    /// every row, and where each starts (one past the last included), as indices into them.
    /// Each value is framed (its tag known, its head and tail within its field's), not checked:
    /// the row decoder checks the rows as it checks a format 4 page's.
    ///
    /// - Parameters:
    ///   - record: The whole record (header and payload).
    ///   - start: Where the page's body starts (after its kind byte).
    ///   - expected: The rows the page must hold.
    /// - Throws: `FileFormatError` when the page is not `expected` rows laid out by field.
    static func rowMajor(_ record: UnsafeRawBufferPointer, from start: Int, expected: Int) throws -> (bytes: [UInt8], offsets: [Int]) {
        guard let s = Sections(record, from: start, expected: expected) else {
            throw FileFormatError("a row page's counts or field ends do not hold up")
        }
        let n = s.rows, fields = s.fields
        var count = ByteWriter()
        count.count(fields)
        let countBytes = count.bytes
        // Every byte of the fields goes to exactly one row, each row after its field count.
        let total = n * countBytes.count + (record.count - s.itemsStart)
        // Per field: where its tags start, its next head, where its heads end, its next tail,
        // where its tails end. (Raw memory, and `o` passed `inout` to `copy`, rather than
        // variables the loop's closures capture: those are checked for exclusive access at
        // each use, which cost more than the copying.)
        let c = UnsafeMutablePointer<Int>.allocate(capacity: 5 * fields)
        defer { c.deallocate() }
        for f in 0..<fields {
            c[5 * f] = s.start(f, record)
            c[5 * f + 1] = c[5 * f] + n
            c[5 * f + 2] = s.headsEnd(f, record)
            c[5 * f + 3] = c[5 * f + 2]
            c[5 * f + 4] = s.tailsEnd(f, record)
        }
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: n + 1)
        defer { starts.deallocate() }
        let bytes = try [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            let src = record.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let dst = out.baseAddress!
            var o = 0
            for k in 0..<n {
                starts[k] = o
                guard countBytes.count <= total &- o else { throw FileFormatError("a row page's fields do not add up") }
                for byte in countBytes {
                    dst[o] = byte
                    o &+= 1
                }
                for f in 0..<fields {
                    let tag = src[c[5 &* f] &+ k]
                    try copy(src, c[5 &* f] &+ k, 1, to: dst, &o, total)
                    let head = c[5 &* f &+ 1], headsEnd = c[5 &* f &+ 2], tail = c[5 &* f &+ 3], tailsEnd = c[5 &* f &+ 4]
                    switch tag {
                    case ByteWriter.tagNull, ByteWriter.tagFalse, ByteWriter.tagTrue:
                        continue
                    case ByteWriter.tagInt:
                        let length = try varintLength(src, head, headsEnd)
                        try copy(src, head, length, to: dst, &o, total)
                        c[5 &* f &+ 1] = head &+ length
                    case ByteWriter.tagDouble, ByteWriter.tagDate, ByteWriter.tagUUID:
                        let length = tag == ByteWriter.tagUUID ? 16 : 8
                        guard length <= headsEnd &- head else { throw FileFormatError("unexpected end of a field's heads") }
                        try copy(src, head, length, to: dst, &o, total)
                        c[5 &* f &+ 1] = head &+ length
                    case ByteWriter.tagString, ByteWriter.tagData, ByteWriter.tagDecimal:
                        let length = try varintLength(src, head, headsEnd)
                        var h = ByteReader(record, from: head, to: head &+ length)
                        let size = try h.varint()
                        guard size <= UInt64(tailsEnd &- tail) else { throw FileFormatError("a string runs past its field") }
                        try copy(src, head, length, to: dst, &o, total)
                        try copy(src, tail, Int(size), to: dst, &o, total)
                        c[5 &* f &+ 1] = head &+ length
                        c[5 &* f &+ 3] = tail &+ Int(size)
                    default:
                        var t = ByteReader(record, from: tail, to: tailsEnd)
                        try skipBody(tag, &t, depth: 0)
                        try copy(src, tail, t.position &- tail, to: dst, &o, total)
                        c[5 &* f &+ 3] = t.position
                    }
                }
            }
            for f in 0..<fields where c[5 * f + 1] != c[5 * f + 2] || c[5 * f + 3] != c[5 * f + 4] {
                throw FileFormatError("unexpected bytes in field \(f) of a row page")
            }
            guard o == total else { throw FileFormatError("a row page's fields do not add up") }
            initialized = o
        }
        starts[n] = total
        return (bytes, Array(UnsafeBufferPointer(start: starts, count: n + 1)))
    }

    /// Copies `length` bytes from `at` in `src` to `dst` at `o` (moved past them), where
    /// `total` bytes fit.
    @inline(__always)
    private static func copy(_ src: UnsafePointer<UInt8>, _ at: Int, _ length: Int, to dst: UnsafeMutablePointer<UInt8>,
                             _ o: inout Int, _ total: Int) throws {
        guard length <= total &- o else { throw FileFormatError("a row page's fields do not add up") }
        if length <= 16 {
            for i in 0..<length { dst[o &+ i] = src[at &+ i] }
        } else {
            (dst + o).update(from: src + at, count: length)
        }
        o &+= length
    }

    /// The length of the varint at `at` (before `end`) as `ByteReader.varint()` reads it: up
    /// to ten bytes, the last with its high bit clear (its value is checked by the row decoder).
    @inline(__always)
    private static func varintLength(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) throws -> Int {
        var i = at
        while i < end, i &- at < 10 {
            if base[i] < 0x80 { return i &- at &+ 1 }
            i &+= 1
        }
        throw FileFormatError("a varint runs past its field")
    }
}

extension FileFormat {
    /// The rows of a row page (`bytes` is the whole record) laid out one after another, and the
    /// offsets of each within the bytes returned (one past the last included): a page laid
    /// out by field (format 5) turned round, a format 3 or 4 page's own bytes.
    ///
    /// - Throws: ``StoreError/corrupted(offset:reason:)`` (at the page's `offset`) when the page
    ///   is not `expected` rows.
    static func rowItems(_ bytes: [UInt8], at offset: Int, expected: Int, fieldLaid: Bool) throws -> (bytes: [UInt8], offsets: [Int]) {
        guard fieldLaid else { return (bytes, try pageOffsets(bytes, at: offset, expected: expected)) }
        return try bytes.withUnsafeBytes { try turnedRound($0, at: offset, expected: expected) }
    }

    /// A row page laid out by field (`record` is the whole record), turned round as
    /// ``FieldLaidRows/rowMajor(_:from:expected:)`` does it.
    ///
    /// - Throws: ``StoreError/corrupted(offset:reason:)`` at the page's `offset`.
    static func turnedRound(_ record: UnsafeRawBufferPointer, at offset: Int, expected: Int) throws -> (bytes: [UInt8], offsets: [Int]) {
        do {
            return try FieldLaidRows.rowMajor(record, from: recordHeaderSize + 1, expected: expected)
        } catch let error as FileFormatError {
            throw StoreError.corrupted(offset: offset, reason: error.reason)
        }
    }
}
