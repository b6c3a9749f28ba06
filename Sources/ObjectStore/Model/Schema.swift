import Locking
import Foundation

/// What a field holds.
public indirect enum FieldKind: Sendable, CustomStringConvertible {
    /// An integer of any width.
    case int
    /// A `Double` or `Float`.
    case double
    /// A Boolean.
    case bool
    /// A string.
    case string
    /// A date.
    case date
    /// Bytes.
    case data
    /// A UUID.
    case uuid
    /// A decimal.
    case decimal
    /// A nested `Codable` value, stored inside the row; its fields when they could be derived.
    case embedded([String: FieldKind])
    /// An array of values of the given kind.
    case list(FieldKind)
    /// A to-one link to another model, stored as its primary key.
    case link(ObjectSchemaRef)
    /// A to-many link, stored as the primary keys of the targets.
    case linkList(ObjectSchemaRef)

    /// A short name of the kind.
    public var description: String {
        switch self {
        case .int: return "int"
        case .double: return "double"
        case .bool: return "bool"
        case .string: return "string"
        case .date: return "date"
        case .data: return "data"
        case .uuid: return "uuid"
        case .decimal: return "decimal"
        case .embedded: return "embedded"
        case .list(let k): return "list<\(k)>"
        case .link(let r): return "link<\(r.name)>"
        case .linkList(let r): return "list<link<\(r.name)>>"
        }
    }

    var isCollection: Bool {
        switch self {
        case .list, .linkList: return true
        default: return false
        }
    }
}

/// A reference to the schema of a linked model (resolved lazily, so models may link in cycles).
public final class ObjectSchemaRef: @unchecked Sendable {
    /// The linked model's name.
    public let name: String
    let type: any StoreObject.Type

    init(_ type: any StoreObject.Type) {
        self.type = type
        self.name = ObjectSchema.typeName(type)
    }

    /// The linked model's schema.
    public var schema: ObjectSchema { try! ObjectSchema.of(type) }
}

/// One stored field.
public struct FieldSchema: Sendable {
    /// The field's name (its coding key).
    public let name: String
    /// What it holds.
    public let kind: FieldKind
    /// Whether it may be `nil`.
    public let isOptional: Bool
    /// Whether it has a secondary index (or is the primary key).
    public let isIndexed: Bool
}

/// The derived shape of a model type: its fields in declaration order and its primary key.
public final class ObjectSchema: @unchecked Sendable {
    /// The model's name, e.g. `Pizza`.
    public let name: String
    /// The fields in declaration order.
    public let fields: [FieldSchema]
    /// The ordinal of the primary-key field.
    public let primaryKeyIndex: Int
    let fieldIndex: [String: Int]
    /// The Swift type, or `nil` for a schema read from a store file whose type is not known.
    let type: (any StoreObject.Type)?
    /// Each field's kind as the store file spells it (`FieldKind.description`).
    let kindNames: [String]
    /// A fingerprint of the row layout (names, kinds, optionality, primary key), stable across
    /// processes: two schemas with the same layout read and write the same rows.
    let layout: UInt64
    /// Which fields are links, by ordinal: what encoding a row asks of every field, without
    /// copying its `FieldSchema`.
    let linkKinds: [LinkKind]

    init(name: String, fields: [FieldSchema], primaryKeyIndex: Int, type: (any StoreObject.Type)?, kindNames: [String]? = nil) {
        self.name = name
        self.fields = fields
        self.linkKinds = fields.map { LinkKind($0.kind) }
        self.primaryKeyIndex = primaryKeyIndex
        self.type = type
        var index: [String: Int] = [:]
        for (i, f) in fields.enumerated() { index[f.name] = i }
        self.fieldIndex = index
        let kinds = kindNames ?? fields.map(\.kind.description)
        self.kindNames = kinds
        var text = "\(primaryKeyIndex)"
        for (f, k) in zip(fields, kinds) { text += "|\(f.name):\(k)\(f.isOptional ? "?" : "")" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        self.layout = hash
    }

    /// A readable form of the layout (for error messages).
    var layoutDescription: String {
        zip(fields, kindNames).map { "\($0.name): \($1)\($0.isOptional ? "?" : "")" }.joined(separator: ", ")
    }

    /// The names of all fields, in declaration order.
    public var fieldNames: [String] { fields.map(\.name) }

    /// The schema of `type`, derived once and cached.
    ///
    /// - Throws: ``StoreError/unsupportedModel(type:reason:)`` when the type's shape cannot be stored.
    public static func of<T: StoreObject>(_ type: T.Type) throws -> ObjectSchema {
        try of(type as any StoreObject.Type)
    }

    static func typeName(_ type: Any.Type) -> String { String(describing: type) }

    nonisolated(unsafe) private static var cache: [ObjectIdentifier: Result<ObjectSchema, StoreError>] = [:]
    private static let cacheLock = RecursiveLock()

    static func of(_ type: any StoreObject.Type) throws -> ObjectSchema {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let cached = cache[ObjectIdentifier(type)] { return try cached.get() }
        let result: Result<ObjectSchema, StoreError>
        do {
            result = .success(try derive(type))
        } catch let error as StoreError {
            result = .failure(error)
        } catch {
            result = .failure(.unsupportedModel(type: typeName(type), reason: "\(error)"))
        }
        cache[ObjectIdentifier(type)] = result
        // Linked models must be storable too (the cache entry above ends cycles).
        if case .success(let schema) = result {
            for field in schema.fields {
                switch field.kind {
                case .link(let ref), .linkList(let ref): try checkLink(type, ref)
                default: break
                }
            }
        }
        return try result.get()
    }

    private static func checkLink(_ type: any StoreObject.Type, _ ref: ObjectSchemaRef) throws {
        do {
            _ = try of(ref.type)
        } catch let error as StoreError {
            let failure = StoreError.unsupportedModel(type: typeName(type), reason: "it links to \(ref.name), which cannot be stored (\(error))")
            cache[ObjectIdentifier(type)] = .failure(failure)
            throw failure
        }
    }

    private static func derive(_ type: any StoreObject.Type) throws -> ObjectSchema {
        let name = typeName(type)
        let probe = SchemaProbe(depth: 0)
        do {
            _ = try type.init(from: probe)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unsupportedModel(type: name, reason: "its Decodable conformance cannot be probed (\(error))")
        }
        guard !probe.fields.isEmpty else {
            throw StoreError.unsupportedModel(type: name, reason: "it has no keyed fields")
        }
        if let problem = probe.problem { throw StoreError.unsupportedModel(type: name, reason: problem) }
        let pkName = type.primaryKeyName
        guard let pk = probe.fields.firstIndex(where: { $0.name == pkName }) else {
            throw StoreError.unsupportedModel(type: name, reason: "primary key '\(pkName)' is not a stored field")
        }
        switch probe.fields[pk].kind {
        case .int, .string, .uuid: break
        default: throw StoreError.unsupportedModel(type: name, reason: "primary key '\(pkName)' must be Int, String or UUID")
        }
        let indexed = Set(type.indexedProperties)
        for field in indexed where !probe.fields.contains(where: { $0.name == field }) {
            throw StoreError.unsupportedModel(type: name, reason: "indexed property '\(field)' is not a field")
        }
        let fields = probe.fields.map {
            FieldSchema(name: $0.name, kind: $0.kind, isOptional: $0.optional, isIndexed: indexed.contains($0.name) || $0.name == pkName)
        }
        return ObjectSchema(name: name, fields: fields, primaryKeyIndex: pk, type: type)
    }
}

// MARK: - Probing a Decodable type for its fields

/// Types whose `Array` form the probe recognises without an instance.
protocol ArrayProbe {
    static var elementType: Any.Type { get }
    static var empty: Any { get }
}

extension Array: ArrayProbe {
    static var elementType: Any.Type { Element.self }
    static var empty: Any { [Element]() }
}

protocol OptionalProbe {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalProbe {
    static var wrappedType: Any.Type { Wrapped.self }
}

func scalarKind(_ type: Any.Type) -> FieldKind? {
    switch type {
    case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
         is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type: return .int
    case is Double.Type, is Float.Type: return .double
    case is Bool.Type: return .bool
    case is String.Type: return .string
    case is Date.Type: return .date
    case is Data.Type: return .data
    case is UUID.Type: return .uuid
    case is Decimal.Type: return .decimal
    default: return nil
    }
}

/// A decoder that answers every request with a default value and records what was asked.
final class SchemaProbe: Decoder {
    struct Probed { var name: String; var kind: FieldKind; var optional: Bool }
    var fields: [Probed] = []
    var singleKind: FieldKind?
    var problem: String?
    let depth: Int
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(depth: Int) { self.depth = depth }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyed<Key>(probe: self))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        throw StoreError.unsupportedModel(type: "?", reason: "a model must encode as a keyed container, not an array")
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { ProbeSingle(probe: self) }

    func record(_ name: String, _ kind: FieldKind, optional: Bool) {
        if let i = fields.firstIndex(where: { $0.name == name }) {
            fields[i].optional = fields[i].optional || optional
        } else {
            fields.append(Probed(name: name, kind: kind, optional: optional))
        }
    }

    /// Produces a default value of `T` and the kind it is stored as.
    func probe<T: Decodable>(_ type: T.Type) throws -> (T?, FieldKind) {
        if let kind = scalarKind(type) { return (defaultScalar(type), kind) }
        if let model = type as? any StoreObject.Type {
            // A to-one link: an instance is only needed when the field is not optional.
            let child = SchemaProbe(depth: depth + 1)
            if depth > 8 { throw StoreError.unsupportedModel(type: "\(type)", reason: "non-optional links nest too deeply (a cycle?)") }
            return (try T(from: child), .link(ObjectSchemaRef(model)))
        }
        if let array = type as? any ArrayProbe.Type {
            let element = array.elementType
            if let model = element as? any StoreObject.Type {
                return (array.empty as? T, .linkList(ObjectSchemaRef(model)))
            }
            if let kind = scalarKind(element) { return (array.empty as? T, .list(kind)) }
            if let opt = element as? any OptionalProbe.Type, let kind = scalarKind(opt.wrappedType) {
                return (array.empty as? T, .list(kind))
            }
            return (array.empty as? T, .list(.embedded([:])))
        }
        let child = SchemaProbe(depth: depth + 1)
        if depth > 8 { throw StoreError.unsupportedModel(type: "\(type)", reason: "embedded values nest too deeply") }
        let value: T
        do {
            value = try T(from: child)
        } catch {
            // An enum whose raw value has no case for the probe's default: use its first case.
            if let cases = type as? any CaseIterable.Type, let first = firstCase(cases) as? T, let single = child.singleKind {
                return (first, single)
            }
            throw StoreError.unsupportedModel(type: "\(type)", reason: "its value cannot be probed (make it CaseIterable if it is an enum)")
        }
        if let single = child.singleKind, child.fields.isEmpty { return (value, single) }
        var sub: [String: FieldKind] = [:]
        for f in child.fields { sub[f.name] = f.kind }
        return (value, .embedded(sub))
    }

    func defaultScalar<T>(_ type: T.Type) -> T? {
        switch type {
        case is Date.Type: return Date(timeIntervalSince1970: 0) as? T
        case is Data.Type: return Data() as? T
        case is UUID.Type: return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) as? T
        case is Decimal.Type: return Decimal(0) as? T
        case is String.Type: return "" as? T
        case is Bool.Type: return false as? T
        case is Double.Type: return 0.0 as? T
        case is Float.Type: return Float(0) as? T
        case is Int.Type: return 0 as? T
        case is Int8.Type: return Int8(0) as? T
        case is Int16.Type: return Int16(0) as? T
        case is Int32.Type: return Int32(0) as? T
        case is Int64.Type: return Int64(0) as? T
        case is UInt.Type: return UInt(0) as? T
        case is UInt8.Type: return UInt8(0) as? T
        case is UInt16.Type: return UInt16(0) as? T
        case is UInt32.Type: return UInt32(0) as? T
        case is UInt64.Type: return UInt64(0) as? T
        default: return nil
        }
    }
}

struct ProbeKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe
    var codingPath: [CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (value, kind) = try probe.probe(type)
        probe.record(key.stringValue, kind, optional: false)
        guard let value else { throw StoreError.unsupportedModel(type: "\(type)", reason: "no default for field '\(key.stringValue)'") }
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if let model = type as? any StoreObject.Type {
            probe.record(key.stringValue, .link(ObjectSchemaRef(model)), optional: true)
            return nil
        }
        let (value, kind) = try probe.probe(type)
        probe.record(key.stringValue, kind, optional: true)
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(Wrapper<Bool>.self, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(Wrapper<String>.self, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(Wrapper<Double>.self, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(Wrapper<Float>.self, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Wrapper<Int>.self, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(Wrapper<Int8>.self, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(Wrapper<Int16>.self, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(Wrapper<Int32>.self, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(Wrapper<Int64>.self, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(Wrapper<UInt>.self, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(Wrapper<UInt8>.self, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(Wrapper<UInt16>.self, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(Wrapper<UInt32>.self, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(Wrapper<UInt64>.self, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try opt(Bool.self, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try opt(String.self, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try opt(Double.self, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try opt(Float.self, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try opt(Int.self, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try opt(Int8.self, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try opt(Int16.self, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try opt(Int32.self, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try opt(Int64.self, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try opt(UInt.self, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try opt(UInt8.self, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try opt(UInt16.self, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try opt(UInt32.self, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try opt(UInt64.self, key) }

    private struct Wrapper<V> {}
    private func decode<V>(_ w: Wrapper<V>.Type, _ key: Key) throws -> V {
        probe.record(key.stringValue, scalarKind(V.self)!, optional: false)
        return probe.defaultScalar(V.self)!
    }
    private func opt<V>(_ type: V.Type, _ key: Key) throws -> V? {
        probe.record(key.stringValue, scalarKind(V.self)!, optional: true)
        return probe.defaultScalar(V.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        probe.problem = "field '\(key.stringValue)' uses a nested container; use a nested Codable type instead"
        return KeyedDecodingContainer(ProbeKeyed<NestedKey>(probe: SchemaProbe(depth: probe.depth + 1)))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        throw StoreError.unsupportedModel(type: "?", reason: "field '\(key.stringValue)' uses a nested unkeyed container")
    }
    func superDecoder() throws -> Decoder {
        throw StoreError.unsupportedModel(type: "?", reason: "superDecoder (class inheritance) is not supported")
    }
    func superDecoder(forKey key: Key) throws -> Decoder { try superDecoder() }
}

struct ProbeSingle: SingleValueDecodingContainer {
    let probe: SchemaProbe
    var codingPath: [CodingKey] { [] }
    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, kind) = try probe.probe(type)
        probe.singleKind = kind
        guard let value else { throw StoreError.unsupportedModel(type: "\(type)", reason: "no default value") }
        return value
    }
    func decode(_ type: Bool.Type) throws -> Bool { try decode(Box<Bool>.self) }
    func decode(_ type: String.Type) throws -> String { try decode(Box<String>.self) }
    func decode(_ type: Double.Type) throws -> Double { try decode(Box<Double>.self) }
    func decode(_ type: Float.Type) throws -> Float { try decode(Box<Float>.self) }
    func decode(_ type: Int.Type) throws -> Int { try decode(Box<Int>.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decode(Box<Int64>.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decode(Box<Int32>.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(Box<UInt8>.self) }
    private struct Box<V> {}
    private func decode<V>(_ b: Box<V>.Type) throws -> V {
        probe.singleKind = scalarKind(V.self)
        return probe.defaultScalar(V.self)!
    }
}

func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { type.allCases.first }
