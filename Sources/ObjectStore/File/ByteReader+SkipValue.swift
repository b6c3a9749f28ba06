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
