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
        // Each field's tags, and the next head and tail of each (where the field's heads and tails end).
        var tags = [Int](), heads = [Int](), tails = [Int](), headsEnds = [Int](), tailsEnds = [Int]()
        for f in 0..<s.fields {
            tags.append(s.start(f, record))
            heads.append(tags[f] + s.rows)
            headsEnds.append(s.headsEnd(f, record))
            tails.append(headsEnds[f])
            tailsEnds.append(s.tailsEnd(f, record))
        }
        var w = ByteWriter()
        w.bytes.reserveCapacity(record.count - s.itemsStart + s.rows * 3)
        var offsets = [Int]()
        offsets.reserveCapacity(s.rows + 1)
        for k in 0..<s.rows {
            offsets.append(w.bytes.count)
            w.count(s.fields)
            for f in 0..<s.fields {
                let tag = record[tags[f] + k]
                w.bytes.append(tag)
                var h = ByteReader(record, from: heads[f], to: headsEnds[f])
                switch tag {
                case ByteWriter.tagNull, ByteWriter.tagFalse, ByteWriter.tagTrue:
                    continue
                case ByteWriter.tagInt:
                    _ = try h.varint()
                case ByteWriter.tagDouble, ByteWriter.tagDate:
                    _ = try h.u64()
                case ByteWriter.tagUUID:
                    _ = try h.bytes(16)
                case ByteWriter.tagString, ByteWriter.tagData, ByteWriter.tagDecimal:
                    let n = try h.varint()
                    guard n <= UInt64(tailsEnds[f] - tails[f]) else { throw FileFormatError("a string runs past its field") }
                    w.bytes.append(contentsOf: record[heads[f]..<h.position])
                    w.bytes.append(contentsOf: record[tails[f]..<tails[f] + Int(n)])
                    tails[f] += Int(n)
                    heads[f] = h.position
                    continue
                default:
                    var t = ByteReader(record, from: tails[f], to: tailsEnds[f])
                    try skipBody(tag, &t, depth: 0)
                    w.bytes.append(contentsOf: record[tails[f]..<t.position])
                    tails[f] = t.position
                    continue
                }
                w.bytes.append(contentsOf: record[heads[f]..<h.position])
                heads[f] = h.position
            }
        }
        offsets.append(w.bytes.count)
        for f in 0..<s.fields where heads[f] != headsEnds[f] || tails[f] != tailsEnds[f] {
            throw FileFormatError("unexpected bytes in field \(f) of a row page")
        }
        return (w.bytes, offsets)
    }

    // MARK: The quick check

    /// Whether every row of the page fits `rules` (one per field), tested a field at a time
    /// without turning the page round: `true` only when ``rowMajor(_:from:expected:)`` would
    /// succeed and `PlainRows` would accept every row it gives. A field of one plain kind (and
    /// nulls) is tested a run at a time; any other (lists, kinds mixed, a varint of ten bytes,
    /// a string of 128 bytes or more) value by value, as `PlainRows` tests a row's values. On
    /// `false` the caller turns the page round and checks its rows one by one, to say what is
    /// wrong.
    static func fits(_ record: UnsafeRawBufferPointer, from start: Int, expected: Int, rules: UnsafeBufferPointer<TagRule>) -> Bool {
        guard let s = Sections(record, from: start, expected: expected), s.fields == rules.count,
              let base = record.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        let n = s.rows
        for f in 0..<s.fields {
            let tagsStart = s.start(f, record)
            let headsStart = tagsStart + n, headsEnd = s.headsEnd(f, record), tailsEnd = s.tailsEnd(f, record)
            let size = record.count
            if let kinds = Kinds(base, tagsStart, n, allowed: rules[f].tags), kinds.lists == 0 {
                let heads = headsEnd - headsStart, tails = tailsEnd - headsEnd
                if kinds.varints == 0, kinds.strings == 0 {
                    // Nothing but fixed widths (and values with no body).
                    if heads == 8 * kinds.eightBytes + 16 * kinds.sixteenBytes, tails == 0 { continue }
                } else if kinds.eightBytes == 0, kinds.sixteenBytes == 0, kinds.strings == 0 {
                    // Integers.
                    if tails == 0, Varints.tile(base, headsStart, headsEnd, count: kinds.varints) { continue }
                } else if kinds.eightBytes == 0, kinds.sixteenBytes == 0, kinds.varints == 0 {
                    // Strings (or data): their lengths, then their bytes.
                    if Strings.fit(base, headsStart, headsEnd, tailsEnd, count: kinds.strings, text: kinds.text, size: size) { continue }
                }
            }
            // Any other field (lists, kinds mixed, a long varint), or one refused above: its
            // values one by one.
            guard walk(base, tags: tagsStart, n, headsStart, headsEnd, tailsEnd, rule: rules[f], size: size) else { return false }
        }
        return true
    }

    /// Whether a field's values, taken one by one, are each of a kind `rule` allows and fill the
    /// field's heads and tails exactly, each value tested as `PlainRows` tests it in a row.
    private static func walk(_ base: UnsafePointer<UInt8>, tags: Int, _ n: Int, _ headsStart: Int, _ headsEnd: Int, _ tailsEnd: Int,
                             rule: TagRule, size: Int) -> Bool {
        var h = headsStart, t = headsEnd
        for k in 0..<n {
            let tag = base[tags &+ k]
            guard tag < 16, rule.tags & (1 &<< UInt16(tag)) != 0 else { return false }
            switch tag {
            case ByteWriter.tagNull, ByteWriter.tagFalse, ByteWriter.tagTrue:
                continue
            case ByteWriter.tagInt:
                guard PlainRows.skipVarint(base, &h, headsEnd, size) else { return false }
            case ByteWriter.tagDouble, ByteWriter.tagDate:
                guard headsEnd &- h >= 8 else { return false }
                h &+= 8
            case ByteWriter.tagUUID:
                guard headsEnd &- h >= 16 else { return false }
                h &+= 16
            case ByteWriter.tagString, ByteWriter.tagData:
                guard let length = PlainRows.varint(base, &h, headsEnd), length <= UInt64(tailsEnd &- t) else { return false }
                let count = Int(length)
                if tag == ByteWriter.tagString, !(PlainRows.isASCII(base, t, count, size) || PlainRows.isUTF8(base + t, count)) {
                    return false
                }
                t &+= count
            case ByteWriter.tagList:
                // Its body in the tails: a count, then each element's tag and body.
                guard let count = PlainRows.varint(base, &t, tailsEnd), count <= UInt64(tailsEnd &- t) else { return false }
                for _ in 0..<Int(count) {
                    guard t < tailsEnd else { return false }
                    let element = base[t]
                    guard element < 16, rule.elementTags & (1 &<< UInt16(element)) != 0 else { return false }
                    t &+= 1
                    guard PlainRows.scalar(element, base, &t, tailsEnd, size) else { return false }
                }
            default:
                return false
            }
        }
        return h == headsEnd && t == tailsEnd
    }

    /// How many values of a field have a body of each shape, from its tags (`nil` when a tag
    /// is not one `allowed` has, or the field mixes strings and data).
    private struct Kinds {
        var varints = 0, eightBytes = 0, sixteenBytes = 0, strings = 0, lists = 0
        /// Whether the strings are text (checked as UTF-8), not data.
        var text = false

        @inline(__always)
        init?(_ base: UnsafePointer<UInt8>, _ start: Int, _ n: Int, allowed: UInt16) {
            let first = base[start]
            // Most fields hold one kind in every row: its tags compared eight at a time.
            let raw = UnsafeRawPointer(base)
            let spread = UInt64(first) &* 0x0101_0101_0101_0101
            var same = true
            var i = start
            while i &+ 8 <= start &+ n {
                if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) != spread { same = false; break }
                i &+= 8
            }
            if same { while i < start &+ n { if base[i] != first { same = false; break }; i &+= 1 } }
            if same {
                if add(first, n, allowed: allowed) { return }
                return nil
            }
            var data = 0
            for i in start..<start &+ n {
                let tag = base[i]
                guard add(tag, 1, allowed: allowed) else { return nil }
                if tag == ByteWriter.tagData { data &+= 1 }
            }
            guard data == 0 || data == strings else { return nil }
            text = data == 0 && strings > 0
        }

        /// Counts `count` values of `tag`; `false` when the tag is not allowed.
        @inline(__always)
        private mutating func add(_ tag: UInt8, _ count: Int, allowed: UInt16) -> Bool {
            guard tag < 16, allowed & (1 &<< UInt16(tag)) != 0 else { return false }
            switch tag {
            case ByteWriter.tagInt: varints &+= count
            case ByteWriter.tagDouble, ByteWriter.tagDate: eightBytes &+= count
            case ByteWriter.tagUUID: sixteenBytes &+= count
            case ByteWriter.tagString: strings &+= count; text = true
            case ByteWriter.tagData: strings &+= count; text = false
            case ByteWriter.tagNull, ByteWriter.tagFalse, ByteWriter.tagTrue: break
            default: lists &+= count   // lists (or anything else allowed) go the slow way
            }
            return true
        }
    }

    /// The integers of a field laid out by field.
    private enum Varints {
        /// Whether the bytes `start ..< end` are exactly `count` varints as `ByteReader.varint()`
        /// reads them, told from their stop bits eight bytes at a time. A varint of ten bytes
        /// (a magnitude of 2⁶³ or more, zigzag-encoded) is refused here, left to the slow way.
        @inline(__always)
        static func tile(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, count: Int) -> Bool {
            if count == 0 { return start == end }
            guard end > start, base[end &- 1] < 0x80 else { return false }
            let raw = UnsafeRawPointer(base)
            var stops = 0
            var run = 0   // continuation bytes since the last stop byte
            var i = start
            while i &+ 8 <= end {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let stop = ~word & 0x8080_8080_8080_8080
                if stop == 0 {
                    run &+= 8
                    if run >= 9 { return false }
                } else {
                    stops &+= stop.nonzeroBitCount
                    if run &+ stop.trailingZeroBitCount &>> 3 >= 9 { return false }
                    run = stop.leadingZeroBitCount &>> 3
                }
                i &+= 8
            }
            while i < end {
                if base[i] < 0x80 {
                    stops &+= 1
                    run = 0
                } else {
                    run &+= 1
                    if run >= 9 { return false }
                }
                i &+= 1
            }
            return stops == count
        }
    }

    /// The strings (or data) of a field laid out by field: lengths in its heads, bytes in its tails.
    private enum Strings {
        /// Whether the heads `headsStart ..< headsEnd` are `count` lengths whose bytes fill the
        /// tails up to `tailsEnd` exactly, and (for `text`) each string is UTF-8. One-byte
        /// lengths (strings under 128 bytes) are summed, and the tails tested for ASCII whole;
        /// only otherwise is each string found in turn.
        static func fit(_ base: UnsafePointer<UInt8>, _ headsStart: Int, _ headsEnd: Int, _ tailsEnd: Int,
                        count: Int, text: Bool, size: Int) -> Bool {
            if headsEnd &- headsStart == count, allASCII(base, headsStart, headsEnd) {
                var sum = 0
                for i in headsStart..<headsEnd { sum &+= Int(base[i]) }
                guard sum == tailsEnd &- headsEnd else { return false }
                if !text || allASCII(base, headsEnd, tailsEnd) { return true }
                var p = headsEnd
                for i in headsStart..<headsEnd {
                    let n = Int(base[i])
                    guard PlainRows.isASCII(base, p, n, size) || PlainRows.isUTF8(base + p, n) else { return false }
                    p &+= n
                }
                return true
            }
            var h = headsStart, p = headsEnd
            for _ in 0..<count {
                guard let length = PlainRows.varint(base, &h, headsEnd), length <= UInt64(tailsEnd &- p) else { return false }
                let n = Int(length)
                if text, !(PlainRows.isASCII(base, p, n, size) || PlainRows.isUTF8(base + p, n)) { return false }
                p &+= n
            }
            return h == headsEnd && p == tailsEnd
        }

        /// Whether the bytes `start ..< end` are all below 0x80, read eight at a time.
        @inline(__always)
        static func allASCII(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
            let raw = UnsafeRawPointer(base)
            var high: UInt64 = 0
            var i = start
            while i &+ 8 <= end {
                high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i &+= 8
            }
            while i < end {
                high |= UInt64(base[i])
                i &+= 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
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
        do {
            return try bytes.withUnsafeBytes { try FieldLaidRows.rowMajor($0, from: recordHeaderSize + 1, expected: expected) }
        } catch let error as FileFormatError {
            throw StoreError.corrupted(offset: offset, reason: error.reason)
        }
    }
}
