import Foundation

// The quick check of a row page laid out by field (see `FieldLaidRows`), which a check of every
// page (a first count or listing) makes instead of turning each page round.
extension FieldLaidRows {
    /// Whether every row of the page fits `rules` (one per field), tested a field at a time
    /// without turning the page round: `true` only when ``rowMajor(_:from:expected:)`` would
    /// succeed and every row it gives would pass the row-by-row check (`PlainRows`, which
    /// declines rows of 128 fields or more, then `ByteReader.skipValue`). A field of one plain
    /// kind (and nulls) is tested a run at a time; any other (lists, kinds mixed, a varint of
    /// ten bytes, a string of 128 bytes or more) value by value, as `PlainRows` tests a row's
    /// values. On `false` the caller turns the page round and checks its rows one by one, to
    /// say what is wrong.
    static func fits(_ record: UnsafeRawBufferPointer, from start: Int, expected: Int, rules: UnsafeBufferPointer<TagRule>) -> Bool {
        guard let s = Sections(record, from: start, expected: expected), s.fields == rules.count,
              let base = record.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        let n = s.rows, size = record.count
        for f in 0..<s.fields {
            let tagsStart = s.start(f, record)
            let headsStart = tagsStart + n, headsEnd = s.headsEnd(f, record), tailsEnd = s.tailsEnd(f, record)
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
                    if Strings.fit(base, headsStart, headsEnd, tailsEnd, count: kinds.strings, text: kinds.texts > 0, size: size) { continue }
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
        var varints = 0, eightBytes = 0, sixteenBytes = 0, texts = 0, blobs = 0, lists = 0
        /// Strings and data: a length head and a tail each.
        var strings: Int { texts &+ blobs }

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
                guard add(first, n, allowed: allowed) else { return nil }
                return
            }
            for i in start..<start &+ n {
                guard add(base[i], 1, allowed: allowed) else { return nil }
            }
            guard texts == 0 || blobs == 0 else { return nil }
        }

        /// Counts `count` values of `tag`; `false` when the tag is not allowed.
        @inline(__always)
        private mutating func add(_ tag: UInt8, _ count: Int, allowed: UInt16) -> Bool {
            guard tag < 16, allowed & (1 &<< UInt16(tag)) != 0 else { return false }
            switch tag {
            case ByteWriter.tagInt: varints &+= count
            case ByteWriter.tagDouble, ByteWriter.tagDate: eightBytes &+= count
            case ByteWriter.tagUUID: sixteenBytes &+= count
            case ByteWriter.tagString: texts &+= count
            case ByteWriter.tagData: blobs &+= count
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
