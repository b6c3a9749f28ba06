import Foundation

/// A stored field value: the compact, type-tagged form every row is made of.
///
/// Rows are arrays of `StoreValue` indexed by field ordinal, so reading a field is an array
/// access, never a dictionary lookup. Links hold the primary key of the target object.
public enum StoreValue: Hashable, Sendable, Codable {
    /// No value (`nil`, `null`).
    case null
    /// A Boolean.
    case bool(Bool)
    /// Any integer (sized integers are widened).
    case int(Int64)
    /// A `Double` or `Float`.
    case double(Double)
    /// A string.
    case string(String)
    /// A date.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// A UUID.
    case uuid(UUID)
    /// A decimal number.
    case decimal(Decimal)
    /// An array (a list field, or the primary keys of a to-many link).
    case list([StoreValue])
    /// An embedded value: a nested `Codable` stored by key.
    case map([String: StoreValue])
}

extension StoreValue {
    /// The value as a `Double` when it is numeric.
    var numeric: Double? {
        switch self {
        case .int(let v): return Double(v)
        case .double(let v): return v
        case .decimal(let v): return NSDecimalNumber(decimal: v).doubleValue
        case .bool(let v): return v ? 1 : 0
        default: return nil
        }
    }

    var isNull: Bool { if case .null = self { return true } else { return false } }

    /// Converts a Swift value (a query argument) to a stored value; `nil` when it cannot be stored.
    /// The stored form of an `NSNumber`, the way Foundation tells its kinds apart: the boolean
    /// numbers are the two `CFBoolean` singletons (`NSNumber(value: true)`, `kCFBooleanTrue`; a
    /// class of their own on every platform), `NSDecimalNumber` is a decimal, and otherwise the
    /// stored C type (`objCType`) says floating point or integer. So `1` and `0` decoded by
    /// `JSONSerialization` are integers, `true` and `false` booleans.
    static func from(number: NSNumber) -> StoreValue {
        if number === NSNumber(value: true) { return .bool(true) }
        if number === NSNumber(value: false) { return .bool(false) }
        if let decimal = number as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
        switch String(cString: number.objCType) {
        case "d", "f": return .double(number.doubleValue)
        case "Q", "L", "I", "S", "C": return .int(Int64(truncatingIfNeeded: number.uint64Value))
        default: return .int(number.int64Value)
        }
    }

    /// How an argument that holds an unsigned integer above `Int64.max` (a `UInt`, a `UInt64`,
    /// an unsigned `NSNumber`, or a list with one) reads in an error, e.g. `UInt64
    /// 18446744073709551615`; `nil` for any other argument. No stored integer can equal it, so a
    /// query refuses it rather than compare with the wrapped-around value ``from(any:)`` keeps
    /// (the bit pattern a `UInt64` field is stored with).
    static func unsignedAboveInt64(_ value: Any?) -> String? {
        guard let value else { return nil }
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            guard ["Q", "L"].contains(String(cString: number.objCType)), number.uint64Value > UInt64(Int64.max) else { return nil }
            return "NSNumber \(number.uint64Value)"
        }
        switch value {
        case let v as UInt where v > UInt(Int64.max): return "UInt \(v)"
        case let v as UInt64 where v > UInt64(Int64.max): return "UInt64 \(v)"
        case let v as [Any]: return v.lazy.compactMap { unsignedAboveInt64($0) }.first
        default: return nil
        }
    }

    static func from(any value: Any?) -> StoreValue? {
        guard let value else { return .null }
        // A Foundation number object (from JSONSerialization, NSNumber(value:), an NSArray): told
        // apart by what it holds, since `as? Bool` also accepts the numbers 0 and 1.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber { return from(number: number) }
        switch value {
        case let v as StoreValue: return v
        case let v as Bool: return .bool(v)
        case let v as Int: return .int(Int64(v))
        case let v as Int8: return .int(Int64(v))
        case let v as Int16: return .int(Int64(v))
        case let v as Int32: return .int(Int64(v))
        case let v as Int64: return .int(v)
        case let v as UInt: return .int(Int64(truncatingIfNeeded: v))
        case let v as UInt8: return .int(Int64(v))
        case let v as UInt16: return .int(Int64(v))
        case let v as UInt32: return .int(Int64(v))
        case let v as UInt64: return .int(Int64(truncatingIfNeeded: v))
        case let v as Double: return .double(v)
        case let v as Float: return .double(Double(v))
        case let v as String: return .string(v)
        case let v as Substring: return .string(String(v))
        case let v as Date: return .date(v)
        case let v as Data: return .data(v)
        case let v as UUID: return .uuid(v)
        case let v as Decimal: return .decimal(v)
        case is NSNull: return .null
        case let v as any StoreObject: return v.primaryKeyValue
        case let v as [Any]:
            var out: [StoreValue] = []
            out.reserveCapacity(v.count)
            for element in v {
                guard let converted = from(any: element) else { return nil }
                out.append(converted)
            }
            return .list(out)
        case let v as any Collection:
            return from(any: Array(v.map { $0 as Any }))
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                if let child = mirror.children.first { return from(any: child.value) }
                return .null
            }
            if let raw = value as? any RawRepresentable { return from(any: raw.rawValue) }
            return nil
        }
    }

    /// The value as a plain Swift value (for ``PropertyChange``).
    var anyValue: Any? {
        switch self {
        case .null: return nil
        case .bool(let v): return v
        case .int(let v): return Int(truncatingIfNeeded: v)
        case .double(let v): return v
        case .string(let v): return v
        case .date(let v): return v
        case .data(let v): return v
        case .uuid(let v): return v
        case .decimal(let v): return v
        case .list(let v): return v.map { $0.anyValue }
        case .map(let v): return v.mapValues { $0.anyValue }
        }
    }

    /// Query-language literal text for this value (used by predicate descriptions).
    var literal: String {
        switch self {
        case .null: return "nil"
        case .bool(let v): return v ? "true" : "false"
        case .int(let v): return String(v)
        case .double(let v):
            if v.isNaN { return "nan" }
            if v.isInfinite { return v > 0 ? "inf" : "-inf" }
            return "\(v)"
        case .string(let v):
            var out = "\""
            for c in v {
                switch c {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default: out.append(c)
                }
            }
            return out + "\""
        case .date(let d):
            let t = d.timeIntervalSince1970
            // Dates beyond ±2^53 s (or NaN, read from a damaged file) have no T-literal.
            guard t.isFinite, abs(t) < 9.0e15 else { return "T\(t):0" }   // T1e+16:0, Tinf:0, Tnan:0
            var seconds = t.rounded(.down)
            var nanos = Int(((t - seconds) * 1_000_000_000).rounded())
            if nanos == 1_000_000_000 { seconds += 1; nanos = 0 }
            return "T\(Int64(seconds)):\(nanos)"
        case .data(let d): return "B64\"\(d.base64EncodedString())\""
        case .uuid(let u): return "uuid(\(u.uuidString))"
        case .decimal(let d): return "decimal128(\(d))"
        case .list(let items): return "{" + items.map(\.literal).joined(separator: ", ") + "}"
        case .map: return "nil"
        }
    }
}

/// Orders two stored values; `nil` when they are not comparable (different kinds, or null).
func compareValues(_ a: StoreValue, _ b: StoreValue) -> Int? {
    switch (a, b) {
    case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.string(let x), .string(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.date(let x), .date(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.decimal(let x), .decimal(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.bool(let x), .bool(let y)): return x == y ? 0 : (!x ? -1 : 1)
    case (.uuid(let x), .uuid(let y)):
        return x.uuidString < y.uuidString ? -1 : (x == y ? 0 : 1)
    case (.data(let x), .data(let y)):
        if x == y { return 0 }
        return x.lexicographicallyPrecedes(y) ? -1 : 1
    case (.null, .null): return 0
    default:
        guard let x = a.numeric, let y = b.numeric, !(a.isBoolValue || b.isBoolValue) else { return nil }
        return x < y ? -1 : (x == y ? 0 : 1)
    }
}

/// Equality across numeric kinds (`1 == 1.0`), exact for the rest.
func valuesEqual(_ a: StoreValue, _ b: StoreValue) -> Bool {
    switch (a, b) {
    case (.int(let x), .int(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.null, .null): return true
    case (.null, _), (_, .null): return false
    default:
        if let c = compareValues(a, b) { return c == 0 }
        return a == b
    }
}

/// A total order for sorting: null first, then by kind, then by value.
func sortCompare(_ a: StoreValue, _ b: StoreValue) -> Int {
    if let c = compareValues(a, b) { return c }
    if a.isNull { return b.isNull ? 0 : -1 }
    if b.isNull { return 1 }
    return a.kindRank < b.kindRank ? -1 : (a.kindRank == b.kindRank ? 0 : 1)
}

extension StoreValue {
    var isBoolValue: Bool { if case .bool = self { return true } else { return false } }

    var kindRank: Int {
        switch self {
        case .null: return 0
        case .bool: return 1
        case .int, .double, .decimal: return 2
        case .string: return 3
        case .date: return 4
        case .data: return 5
        case .uuid: return 6
        case .list: return 7
        case .map: return 8
        }
    }
}
