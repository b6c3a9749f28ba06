import Foundation

/// What a field's value may be, for the quick check of a whole page: the value tags it may have and,
/// for a list, the tags its elements may have. Fields a mask cannot describe (embedded values,
/// decimals, lists of lists) are `nil` and go through `ByteReader.skipValue`.
struct TagRule {
    let tags: UInt16
    let elementTags: UInt16

    init?(_ check: ValueCheck, optional: Bool) {
        guard let tags = TagRule.tags(check, optional: optional) else { return nil }
        self.tags = tags
        if case .list(let element) = check {
            guard let inner = TagRule.tags(element, optional: true), inner & (1 << ByteWriter.tagList) == 0 else { return nil }
            elementTags = inner
        } else {
            elementTags = 0
        }
    }

    private static func tags(_ check: ValueCheck, optional: Bool) -> UInt16? {
        func bit(_ tag: UInt8) -> UInt16 { 1 << UInt16(tag) }
        let null: UInt16 = optional ? bit(ByteWriter.tagNull) : 0
        switch check {
        case .int: return bit(ByteWriter.tagInt) | null
        case .double: return bit(ByteWriter.tagDouble) | bit(ByteWriter.tagInt) | null
        case .bool: return bit(ByteWriter.tagFalse) | bit(ByteWriter.tagTrue) | null
        case .string: return bit(ByteWriter.tagString) | null
        case .date: return bit(ByteWriter.tagDate) | null
        case .data: return bit(ByteWriter.tagData) | null
        case .uuid: return bit(ByteWriter.tagUUID) | null
        case .link: return bit(ByteWriter.tagInt) | bit(ByteWriter.tagString) | bit(ByteWriter.tagUUID) | bit(ByteWriter.tagNull)
        case .list: return bit(ByteWriter.tagList) | null
        case .decimal, .any: return nil
        }
    }
}

/// The quick check of a row page: each row's values walked by their tags alone, with raw
/// pointers and no error values, so a page of plain rows costs a few instructions a byte.
/// Whatever it refuses, the caller reads again with `ByteReader.skipValue`, which says why;
/// it accepts exactly what `skipValue` accepts for the checks its rules were made from.
enum PlainRows {
    /// The index of the first row of `record` (row `k` is the bytes `offsets[k] ..< offsets[k + 1]`,
    /// each within `record`) that is not a field count of `rules.count` followed by one plain value
    /// per rule; the number of rows when every row is.
    static func firstRowNotFitting(_ record: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>,
                                   rules: UnsafeBufferPointer<TagRule>) -> Int {
        let rows = offsets.count - 1
        guard rows > 0, rules.count < 0x80, let base = record.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        var k = 0
        while k < rows {
            var p = offsets[k]
            let end = offsets[k + 1]
            guard p >= 0, end <= record.count, p < end, Int(base[p]) == rules.count else { return k }
            p &+= 1
            for rule in rules {
                guard p < end else { return k }
                let tag = base[p]
                guard tag < 16, rule.tags & (1 &<< UInt16(tag)) != 0 else { return k }
                p &+= 1
                if tag == ByteWriter.tagList {
                    guard let n = varint(base, &p, end), n <= UInt64(end &- p) else { return k }
                    for _ in 0..<Int(n) {
                        guard p < end else { return k }
                        let element = base[p]
                        guard element < 16, rule.elementTags & (1 &<< UInt16(element)) != 0 else { return k }
                        p &+= 1
                        guard scalar(element, base, &p, end, record.count) else { return k }
                    }
                } else {
                    guard scalar(tag, base, &p, end, record.count) else { return k }
                }
            }
            guard p == end else { return k }
            k &+= 1
        }
        return rows
    }

    /// Moves `p` past the body of a plain value whose tag was read; `false` when it is not one.
    /// (A chain of tests, most frequent kinds first, rather than a switch: a jump table's
    /// indirect branch cost more than the whole test of a field.)
    @inline(__always)
    static func scalar(_ tag: UInt8, _ base: UnsafePointer<UInt8>, _ p: inout Int, _ end: Int, _ size: Int) -> Bool {
        if tag == ByteWriter.tagInt { return skipVarint(base, &p, end, size) }
        if tag | 2 == ByteWriter.tagDate {   // a double or a date
            guard end &- p >= 8 else { return false }
            p &+= 8
            return true
        }
        if tag == ByteWriter.tagString {
            guard let n = varint(base, &p, end), n <= UInt64(end &- p) else { return false }
            let start = p
            p &+= Int(n)
            return isASCII(base, start, Int(n), size) || isUTF8(base + start, Int(n))
        }
        if tag <= ByteWriter.tagTrue { return true }
        if tag == ByteWriter.tagUUID {
            guard end &- p >= 16 else { return false }
            p &+= 16
            return true
        }
        if tag == ByteWriter.tagData {
            guard let n = varint(base, &p, end), n <= UInt64(end &- p) else { return false }
            p &+= Int(n)
            return true
        }
        return false
    }

    /// Whether `n` bytes at `start` are UTF-8 (kept out of line: most strings are ASCII).
    @inline(never)
    static func isUTF8(_ start: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        String(validating: UnsafeBufferPointer(start: start, count: n), as: UTF8.self) != nil
    }

    /// A varint as `ByteReader.varint()` reads it (at most ten bytes, the tenth 0 or 1), `nil`
    /// where that throws.
    @inline(__always)
    static func varint(_ base: UnsafePointer<UInt8>, _ p: inout Int, _ end: Int) -> UInt64? {
        guard p < end else { return nil }
        let first = base[p]
        if first < 0x80 {
            p &+= 1
            return UInt64(first)
        }
        return longVarint(base, &p, end)
    }

    /// Moves `p` past a varint as ``varint(_:_:_:)`` reads it: its length found from the stop
    /// bits of the eight bytes at `p` when the buffer (`size` bytes) holds them.
    @inline(__always)
    static func skipVarint(_ base: UnsafePointer<UInt8>, _ p: inout Int, _ end: Int, _ size: Int) -> Bool {
        if p &+ 8 <= size {
            let stops = ~UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: p, as: UInt64.self)) & 0x8080_8080_8080_8080
            if stops != 0 {
                let length = (stops.trailingZeroBitCount &+ 1) &>> 3
                guard length <= end &- p else { return false }
                p &+= length
                return true
            }
        }
        return longVarint(base, &p, end) != nil
    }

    /// ``varint(_:_:_:)`` of two bytes or more.
    @inline(never)
    private static func longVarint(_ base: UnsafePointer<UInt8>, _ p: inout Int, _ end: Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while p < end {
            let byte = base[p]
            p &+= 1
            if shift == 63 && byte > 1 { return nil }
            result |= UInt64(byte & 0x7F) &<< shift
            if byte & 0x80 == 0 { return result }
            shift &+= 7
            if shift > 63 { return nil }
        }
        return nil
    }

    /// Whether the `n` bytes at `start` are all ASCII, read eight at a time (a short string as
    /// one masked word when the buffer, `size` bytes, holds eight from its start).
    @inline(__always)
    static func isASCII(_ base: UnsafePointer<UInt8>, _ start: Int, _ n: Int, _ size: Int) -> Bool {
        let raw = UnsafeRawPointer(base)
        if n < 8 {
            if n == 0 { return true }
            if start &+ 8 <= size {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
                return word & (0x8080_8080_8080_8080 &>> UInt64(64 &- 8 &* n)) == 0
            }
            for i in start..<start &+ n where base[i] >= 0x80 { return false }
            return true
        }
        var high: UInt64 = 0
        var i = start
        let last = start &+ n &- 8
        while i < last {
            high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        high |= raw.loadUnaligned(fromByteOffset: last, as: UInt64.self)
        return high & 0x8080_8080_8080_8080 == 0
    }
}
