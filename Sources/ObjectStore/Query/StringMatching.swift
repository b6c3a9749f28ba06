import Foundation

/// Makes a constant hash like the stored values of a field of kind `leaf` (`5.0` → `5` for ints).
func normalise(_ value: StoreValue, for leaf: FieldKind?) -> StoreValue {
    var kind = leaf
    if case .list(let k)? = leaf { kind = k }
    switch (kind, value) {
    case (.int?, .double(let d)) where d.rounded() == d && abs(d) < 9e18: return .int(Int64(d))
    case (.double?, .int(let i)): return .double(Double(i))
    case (.uuid?, .string(let s)): return UUID(uuidString: s).map(StoreValue.uuid) ?? value
    case (_, .double(let d)) where leaf == nil && d.rounded() == d && abs(d) < 9e18: return .int(Int64(d))
    default: return value
    }
}

/// A `[c]`/`[d]` string test against an ASCII constant (`needle`, already folded) that reads
/// each row's bytes in place instead of building a folded copy of every row's string. A row
/// that is ASCII (and has no carriage return, which joins a following line feed into one
/// `Character`) compares as bytes: for such text, byte and `Character` comparisons agree, `[d]`
/// changes nothing and `[c]` is ASCII lowercasing. Any other value takes `general`.
///
/// Returns `nil` when the operator or the needle has no fast form.
func asciiFoldedTest(_ op: ComparisonOperator, _ options: StringOptions, needle: String, general: @escaping (StoreValue) -> Bool) -> ((StoreValue) -> Bool)? {
    let pattern = Array(needle.utf8)
    guard pattern.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
    let ignoreCase = options.contains(.caseInsensitive)
    let match: (UnsafeBufferPointer<UInt8>) -> Bool
    switch op {
    case .contains: match = { asciiFind(pattern, in: $0, ignoreCase: ignoreCase) }
    case .beginsWith: match = { $0.count >= pattern.count && asciiEqual(pattern, $0, from: 0, ignoreCase: ignoreCase) }
    case .endsWith: match = { $0.count >= pattern.count && asciiEqual(pattern, $0, from: $0.count - pattern.count, ignoreCase: ignoreCase) }
    case .equal: match = { $0.count == pattern.count && asciiEqual(pattern, $0, from: 0, ignoreCase: ignoreCase) }
    case .notEqual: match = { !($0.count == pattern.count && asciiEqual(pattern, $0, from: 0, ignoreCase: ignoreCase)) }
    default: return nil
    }
    return { value in
        guard case .string(var text) = value else { return general(value) }
        let result = text.withUTF8 { bytes -> Bool? in
            for byte in bytes where byte >= 0x80 || byte == 0x0D { return nil }
            return match(bytes)
        }
        return result ?? general(value)
    }
}

/// ASCII lowercase of a byte (other bytes unchanged).
@inline(__always)
private func asciiLower(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
}

/// Whether `pattern` (lowercase when `ignoreCase`) occurs in `text` at `start`.
@inline(__always)
private func asciiEqual(_ pattern: [UInt8], _ text: UnsafeBufferPointer<UInt8>, from start: Int, ignoreCase: Bool) -> Bool {
    pattern.withUnsafeBufferPointer { pattern in
        var i = 0
        while i < pattern.count {
            let byte = text[start + i]
            if (ignoreCase ? asciiLower(byte) : byte) != pattern[i] { return false }
            i += 1
        }
        return true
    }
}

/// Whether `pattern` (lowercase when `ignoreCase`) occurs anywhere in `text`; an empty pattern
/// occurs everywhere.
private func asciiFind(_ pattern: [UInt8], in text: UnsafeBufferPointer<UInt8>, ignoreCase: Bool) -> Bool {
    if pattern.isEmpty { return true }
    if text.count < pattern.count { return false }
    let first = pattern[0]
    var start = 0
    let last = text.count - pattern.count
    while start <= last {
        let byte = text[start]
        if (ignoreCase ? asciiLower(byte) : byte) == first, asciiEqual(pattern, text, from: start, ignoreCase: ignoreCase) {
            return true
        }
        start += 1
    }
    return false
}

/// Case/diacritic folding for `[c]`, `[d]`, `[cd]`.
@inline(__always)
func fold(_ value: StoreValue, _ options: StringOptions) -> StoreValue {
    guard !options.isEmpty, case .string(let s) = value else { return value }
    // ASCII text folds to its lowercase for [c] and to itself for [d]: skip Foundation's folding
    // (which builds a new string through NSString for every row).
    if s.utf8.allSatisfy({ $0 < 0x80 }) {
        return options.contains(.caseInsensitive) ? .string(s.lowercased()) : value
    }
    var o: String.CompareOptions = []
    if options.contains(.caseInsensitive) { o.insert(.caseInsensitive) }
    if options.contains(.diacriticInsensitive) { o.insert(.diacriticInsensitive) }
    return .string(s.folding(options: o, locale: nil))
}

@inline(__always)
func stringTest(_ a: StoreValue, _ b: StoreValue, _ test: (String, String) -> Bool) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return test(x, y)
    case (.data(let x), .data(let y)):
        return test(x.map { String(format: "%02x", $0) }.joined(), y.map { String(format: "%02x", $0) }.joined())
    default: return false
    }
}

/// `*` matches any run of characters, `?` exactly one.
func likeMatch(_ s: [Unicode.Scalar], _ p: [Unicode.Scalar]) -> Bool {
    var i = 0, j = 0, star = -1, mark = 0
    while i < s.count {
        if j < p.count, p[j] == "?" || (p[j] != "*" && p[j] == s[i]) {
            i += 1; j += 1
        } else if j < p.count, p[j] == "*" {
            star = j; mark = i; j += 1
        } else if star >= 0 {
            j = star + 1; mark += 1; i = mark
        } else {
            return false
        }
    }
    while j < p.count, p[j] == "*" { j += 1 }
    return j == p.count
}
