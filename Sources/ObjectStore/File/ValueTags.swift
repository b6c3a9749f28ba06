import Foundation

extension ByteReader {
    /// Reads past one value exactly as `value(depth:)` reads it, and checks it as
    /// `ValueCheck.accepts(_:optional:)` would check the value read, without building it: the
    /// same bytes are accepted and refused, and nothing is allocated for a value of the plain
    /// kinds (an ASCII string included).
    ///
    /// - Throws: `FileFormatError` when the bytes are not a value, or the value does not fit.
    mutating func skipValue(_ check: ValueCheck, optional: Bool, depth: Int = 0) throws {
        guard depth < 64 else { throw FileFormatError("values nest too deeply") }
        let tag = try u8()
        let fits: Bool
        switch tag {
        case ByteWriter.tagNull:
            switch check {
            case .link, .any: fits = true
            default: fits = optional
            }
        case ByteWriter.tagFalse, ByteWriter.tagTrue:
            fits = check.isAny || check.isBool
        case ByteWriter.tagInt:
            let z = try varint()
            _ = z
            switch check {
            case .any, .int, .double, .decimal, .link: fits = true
            default: fits = false
            }
        case ByteWriter.tagDouble:
            _ = try u64()
            switch check {
            case .any, .double, .decimal: fits = true
            default: fits = false
            }
        case ByteWriter.tagString:
            try skipString()
            switch check {
            case .any, .string, .link: fits = true
            default: fits = false
            }
        case ByteWriter.tagDate:
            _ = try u64()
            switch check {
            case .any, .date: fits = true
            default: fits = false
            }
        case ByteWriter.tagData:
            let n = try count()
            _ = try bytes(n)
            switch check {
            case .any, .data: fits = true
            default: fits = false
            }
        case ByteWriter.tagUUID:
            _ = try bytes(16)
            switch check {
            case .any, .uuid, .link: fits = true
            default: fits = false
            }
        case ByteWriter.tagDecimal:
            let text = try string()
            guard Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) != nil else {
                throw FileFormatError("invalid decimal \(text.prefix(40))")
            }
            switch check {
            case .any, .decimal: fits = true
            default: fits = false
            }
        case ByteWriter.tagList:
            let n = try count()
            switch check {
            case .list(let element):
                for _ in 0..<n { try skipValue(element, optional: true, depth: depth + 1) }
                fits = true
            case .any:
                for _ in 0..<n { try skipValue(.any, optional: true, depth: depth + 1) }
                fits = true
            default:
                for _ in 0..<n { try skipValue(.any, optional: true, depth: depth + 1) }
                fits = false
            }
        case ByteWriter.tagMap:
            let n = try count(minimumSize: 2)
            for _ in 0..<n {
                try skipString()
                try skipValue(.any, optional: true, depth: depth + 1)
            }
            fits = check.isAny
        default:
            throw FileFormatError("unknown value tag \(tag)")
        }
        if !fits { throw ValueCheck.Mismatch() }
    }

    /// Reads past a string, checking that it is UTF-8 as `string()` does.
    mutating func skipString() throws {
        let n = try count()
        let raw = try bytes(n)
        var i = 0
        var ascii = true
        while i + 8 <= n {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { ascii = false; break }
            i += 8
        }
        if ascii { while i < n { if raw[i] >= 0x80 { ascii = false; break }; i += 1 } }
        if !ascii, String(validating: raw, as: UTF8.self) == nil { throw FileFormatError("invalid UTF-8 in a string") }
    }
}

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

extension ByteReader {
    /// Reads past one value whose tag must be in `rule` (a list's elements in its element
    /// tags). `false` when the bytes are not such a value, whatever the reason: the caller then
    /// reads it again with `skipValue`, which says why. Accepts exactly what `skipValue`
    /// accepts for the check the rule was made from.
    @inline(__always)
    mutating func skipPlain(_ rule: TagRule) -> Bool {
        guard position < end else { return false }
        let tag = base[position]
        guard tag < 16, rule.tags & (1 << UInt16(tag)) != 0 else { return false }
        position += 1
        if tag == ByteWriter.tagList {
            guard let n = plainVarint(), n <= UInt64(end - position) else { return false }
            for _ in 0..<Int(n) {
                guard position < end else { return false }
                let element = base[position]
                guard element < 16, rule.elementTags & (1 << UInt16(element)) != 0 else { return false }
                position += 1
                guard skipScalar(element) else { return false }
            }
            return true
        }
        return skipScalar(tag)
    }

    /// Reads past the body of a value of a plain kind whose tag was read.
    @inline(__always)
    private mutating func skipScalar(_ tag: UInt8) -> Bool {
        switch tag {
        case ByteWriter.tagNull, ByteWriter.tagFalse, ByteWriter.tagTrue:
            return true
        case ByteWriter.tagInt:
            return plainVarint() != nil
        case ByteWriter.tagDouble, ByteWriter.tagDate:
            guard end - position >= 8 else { return false }
            position += 8
            return true
        case ByteWriter.tagUUID:
            guard end - position >= 16 else { return false }
            position += 16
            return true
        case ByteWriter.tagString:
            return (try? skipString()) != nil
        case ByteWriter.tagData:
            guard let n = plainVarint(), n <= UInt64(end - position) else { return false }
            position += Int(n)
            return true
        default:
            return false
        }
    }

    /// A varint as `varint()` reads it, `nil` where that throws.
    @inline(__always)
    private mutating func plainVarint() -> UInt64? {
        guard position < end else { return nil }
        let first = base[position]
        if first < 0x80 {
            position += 1
            return UInt64(first)
        }
        return try? varint()
    }
}
