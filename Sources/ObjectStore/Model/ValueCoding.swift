import Foundation

/// Scalar fast path shared by the encoders: the stored form of a scalar Swift value.
@inline(__always)
func scalarStoreValue<T>(_ value: T) -> StoreValue? {
    // Compare metatypes first: cheaper than a dynamic cast of the value.
    if T.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
    if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
    if T.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
    if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
    if T.self == [Int].self { return .list(unsafeBitCast(value, to: [Int].self).map { .int(Int64($0)) }) }
    if T.self == [String].self { return .list(unsafeBitCast(value, to: [String].self).map { .string($0) }) }
    if T.self == [Double].self { return .list(unsafeBitCast(value, to: [Double].self).map { .double($0) }) }
    switch value {
    case let v as Int: return .int(Int64(v))
    case let v as String: return .string(v)
    case let v as Double: return .double(v)
    case let v as Bool: return .bool(v)
    case let v as Date: return .date(v)
    case let v as Float: return .double(Double(v))
    case let v as Int64: return .int(v)
    case let v as Int32: return .int(Int64(v))
    case let v as Int16: return .int(Int64(v))
    case let v as Int8: return .int(Int64(v))
    case let v as UInt: return .int(Int64(truncatingIfNeeded: v))
    case let v as UInt64: return .int(Int64(truncatingIfNeeded: v))
    case let v as UInt32: return .int(Int64(v))
    case let v as UInt16: return .int(Int64(v))
    case let v as UInt8: return .int(Int64(v))
    case let v as Data: return .data(v)
    case let v as UUID: return .uuid(v)
    case let v as Decimal: return .decimal(v)
    default: return nil
    }
}

/// Reads a scalar Swift value of type `T` out of a stored value.
func scalarFromStore<T>(_ value: StoreValue, as type: T.Type) -> T? {
    switch value {
    case .int(let v):
        switch type {
        case is Int.Type: return Int(truncatingIfNeeded: v) as? T
        case is Int64.Type: return v as? T
        case is Int32.Type: return Int32(truncatingIfNeeded: v) as? T
        case is Int16.Type: return Int16(truncatingIfNeeded: v) as? T
        case is Int8.Type: return Int8(truncatingIfNeeded: v) as? T
        case is UInt.Type: return UInt(truncatingIfNeeded: v) as? T
        case is UInt64.Type: return UInt64(truncatingIfNeeded: v) as? T
        case is UInt32.Type: return UInt32(truncatingIfNeeded: v) as? T
        case is UInt16.Type: return UInt16(truncatingIfNeeded: v) as? T
        case is UInt8.Type: return UInt8(truncatingIfNeeded: v) as? T
        case is Double.Type: return Double(v) as? T
        case is Float.Type: return Float(v) as? T
        case is Decimal.Type: return Decimal(v) as? T
        default: return nil
        }
    case .double(let v):
        switch type {
        case is Double.Type: return v as? T
        case is Float.Type: return Float(v) as? T
        case is Decimal.Type: return Decimal(v) as? T
        case is Int.Type: return Int(exactly: v.rounded(.towardZero)) as? T   // nil when out of range or NaN
        default: return nil
        }
    case .string(let v): return v as? T
    case .bool(let v): return v as? T
    case .date(let v): return v as? T
    case .data(let v): return v as? T
    case .uuid(let v): return v as? T
    case .decimal(let v):
        if type == Double.self { return NSDecimalNumber(decimal: v).doubleValue as? T }
        return v as? T
    default: return nil
    }
}

// MARK: - Encoding any Encodable into a StoreValue (embedded values and lists)

final class ValueNode {
    var value: StoreValue = .null
    var keyed: [String: ValueNode]?
    var items: [ValueNode]?

    func resolve() -> StoreValue {
        if let keyed { return .map(keyed.mapValues { $0.resolve() }) }
        if let items { return .list(items.map { $0.resolve() }) }
        return value
    }
}

/// Encodes any `Encodable` value into a ``StoreValue`` tree.
final class ValueEncoder: Encoder {
    let node: ValueNode
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(node: ValueNode = ValueNode()) { self.node = node }

    static func encode<T: Encodable>(_ value: T) throws -> StoreValue {
        if let scalar = scalarStoreValue(value) { return scalar }
        let encoder = ValueEncoder()
        try value.encode(to: encoder)
        return encoder.node.resolve()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.keyed == nil { node.keyed = [:] }
        return KeyedEncodingContainer(ValueKeyedEncoder<Key>(node: node))
    }
    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if node.items == nil { node.items = [] }
        return ValueUnkeyedEncoder(node: node)
    }
    func singleValueContainer() -> SingleValueEncodingContainer { ValueSingleEncoder(node: node) }
}

func encodeChild<T: Encodable>(_ value: T) throws -> ValueNode {
    let child = ValueNode()
    if let scalar = scalarStoreValue(value) {
        child.value = scalar
    } else {
        try value.encode(to: ValueEncoder(node: child))
    }
    return child
}

struct ValueKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: ValueNode
    var codingPath: [CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws { node.keyed![key.stringValue] = ValueNode() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.keyed![key.stringValue] = try encodeChild(value)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = ValueNode()
        child.keyed = [:]
        node.keyed![key.stringValue] = child
        return KeyedEncodingContainer(ValueKeyedEncoder<NestedKey>(node: child))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let child = ValueNode()
        child.items = []
        node.keyed![key.stringValue] = child
        return ValueUnkeyedEncoder(node: child)
    }
    mutating func superEncoder() -> Encoder { ValueEncoder(node: node) }
    mutating func superEncoder(forKey key: Key) -> Encoder {
        let child = ValueNode()
        node.keyed![key.stringValue] = child
        return ValueEncoder(node: child)
    }
}

struct ValueUnkeyedEncoder: UnkeyedEncodingContainer {
    let node: ValueNode
    var codingPath: [CodingKey] { [] }
    var count: Int { node.items!.count }
    mutating func encodeNil() throws { node.items!.append(ValueNode()) }
    mutating func encode<T: Encodable>(_ value: T) throws { node.items!.append(try encodeChild(value)) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = ValueNode()
        child.keyed = [:]
        node.items!.append(child)
        return KeyedEncodingContainer(ValueKeyedEncoder<NestedKey>(node: child))
    }
    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let child = ValueNode()
        child.items = []
        node.items!.append(child)
        return ValueUnkeyedEncoder(node: child)
    }
    mutating func superEncoder() -> Encoder {
        let child = ValueNode()
        node.items!.append(child)
        return ValueEncoder(node: child)
    }
}

struct ValueSingleEncoder: SingleValueEncodingContainer {
    let node: ValueNode
    var codingPath: [CodingKey] { [] }
    mutating func encodeNil() throws { node.value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = try encodeChild(value)
        node.value = child.value
        node.keyed = child.keyed
        node.items = child.items
    }
}

// MARK: - Decoding any Decodable from a StoreValue

/// Decodes a `Decodable` value from a ``StoreValue`` tree.
final class ValueDecoder: Decoder {
    let value: StoreValue
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(_ value: StoreValue) { self.value = value }

    static func decode<T: Decodable>(_ type: T.Type, from value: StoreValue) throws -> T {
        if let scalar = scalarFromStore(value, as: type) { return scalar }
        return try T(from: ValueDecoder(value))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let dict) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "stored value is not embedded: \(value)"))
        }
        return KeyedDecodingContainer(ValueKeyedDecoder<Key>(dict: dict))
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .list(let items) = value else {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "stored value is not a list: \(value)"))
        }
        return ValueUnkeyedDecoder(items: items)
    }
    func singleValueContainer() throws -> SingleValueDecodingContainer { ValueSingleDecoder(value: value) }
}

func mismatch<T>(_ type: T.Type, _ value: StoreValue) -> DecodingError {
    DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "cannot read \(type) from stored \(value)"))
}

struct ValueKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let dict: [String: StoreValue]
    var codingPath: [CodingKey] { [] }
    var allKeys: [Key] { dict.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { dict[key.stringValue] != nil }
    func decodeNil(forKey key: Key) throws -> Bool { dict[key.stringValue]?.isNull ?? true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let v = dict[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "missing"))
        }
        return try ValueDecoder.decode(type, from: v)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(dict[key.stringValue] ?? .null).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try ValueDecoder(dict[key.stringValue] ?? .null).unkeyedContainer()
    }
    func superDecoder() throws -> Decoder { ValueDecoder(.map(dict)) }
    func superDecoder(forKey key: Key) throws -> Decoder { ValueDecoder(dict[key.stringValue] ?? .null) }
}

struct ValueUnkeyedDecoder: UnkeyedDecodingContainer {
    let items: [StoreValue]
    var codingPath: [CodingKey] { [] }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }
    var currentIndex = 0
    init(items: [StoreValue]) { self.items = items }
    mutating func decodeNil() throws -> Bool {
        if !isAtEnd, items[currentIndex].isNull { currentIndex += 1; return true }
        return false
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "end of list")) }
        let v = try ValueDecoder.decode(type, from: items[currentIndex])
        currentIndex += 1
        return v
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let d = ValueDecoder(items[currentIndex]); currentIndex += 1
        return try d.container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        let d = ValueDecoder(items[currentIndex]); currentIndex += 1
        return try d.unkeyedContainer()
    }
    mutating func superDecoder() throws -> Decoder {
        let d = ValueDecoder(items[currentIndex]); currentIndex += 1
        return d
    }
}

struct ValueSingleDecoder: SingleValueDecodingContainer {
    let value: StoreValue
    var codingPath: [CodingKey] { [] }
    func decodeNil() -> Bool { value.isNull }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let scalar = scalarFromStore(value, as: type) { return scalar }
        if scalarKind(type) != nil { throw mismatch(type, value) }
        return try T(from: ValueDecoder(value))
    }
}
