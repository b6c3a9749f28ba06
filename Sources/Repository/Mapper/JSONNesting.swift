import Foundation

/// How deeply a JSON body nests, measured before `JSONDecoder` sees it: Foundation's decoder on
/// Linux traps (instead of throwing) on a body whose nesting reaches 513 levels exactly at its
/// last byte.
enum JSONNesting {
    /// Whether arrays and objects in `data` nest deeper than `limit`, counting `[` and `{`
    /// outside strings (escapes honoured) in one pass; stops at the first level past the limit.
    static func exceeds(_ limit: Int, in data: Data) -> Bool {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            var depth = 0
            var inString = false
            var escaped = false
            for byte in bytes {
                if inString {
                    if escaped { escaped = false }
                    else if byte == UInt8(ascii: "\\") { escaped = true }
                    else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > limit { return true }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth > 0 { depth -= 1 }
                default: break
                }
            }
            return false
        }
    }
}
