import Foundation

/// The order of primary keys in key pages: by kind, then by value. Two keys compare equal
/// exactly when they are equal as `StoreValue`s (the primary-key index's equality).
func keyCompare(_ a: StoreValue, _ b: StoreValue) -> Int {
    switch (a, b) {
    case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.string(let x), .string(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.uuid(let x), .uuid(let y)):
        let p = withUnsafeBytes(of: x.uuid) { Array($0) }, q = withUnsafeBytes(of: y.uuid) { Array($0) }
        if p == q { return 0 }
        return p.lexicographicallyPrecedes(q) ? -1 : 1
    default:
        if a.kindRank != b.kindRank || a.isBoolValue != b.isBoolValue {
            let x = a.kindRank * 2 + (a.isBoolValue ? 1 : 0), y = b.kindRank * 2 + (b.isBoolValue ? 1 : 0)
            if x != y { return x < y ? -1 : 1 }
        }
        if a == b { return 0 }
        // Same rank, different values or kinds (a double key beside an int one): order by the
        // value's encoding, which is total and tells different values apart.
        var p = ByteWriter(), q = ByteWriter()
        p.value(a)
        q.value(b)
        if p.bytes == q.bytes { return 0 }
        return p.bytes.lexicographicallyPrecedes(q.bytes) ? -1 : 1
    }
}
