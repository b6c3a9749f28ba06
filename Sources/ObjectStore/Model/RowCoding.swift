import Foundation

/// A stored object: its field values in schema order.
typealias Row = [StoreValue]

// MARK: - Object → row

/// Encodes a model into a row, collecting the linked objects it refers to.
final class RowEncoder: Encoder {
    let schema: ObjectSchema
    // Used by one thread, one access at a time: no runtime exclusivity check per field.
    @exclusivity(unchecked) var row: Row
    @exclusivity(unchecked) var linked: [any StoreObject] = []
    @exclusivity(unchecked) var next = 0
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    /// The to-many link types met so far, shared by the encoders of one transaction.
    let listTypes: LinkListTypes?

    init(schema: ObjectSchema, listTypes: LinkListTypes? = nil) {
        self.schema = schema
        self.row = Row(repeating: .null, count: schema.fields.count)
        self.listTypes = listTypes
    }

    static func encode<T: StoreObject>(_ object: T, schema: ObjectSchema, listTypes: LinkListTypes? = nil) throws -> (Row, [any StoreObject]) {
        let encoder = RowEncoder(schema: schema, listTypes: listTypes)
        try object.encode(to: encoder)
        return (encoder.row, encoder.linked)
    }

    /// The ordinal of `name`; fields usually arrive in declaration order, so try that first.
    @inline(__always)
    func slot(_ name: String) throws -> Int {
        let fields = schema.fields
        if next < fields.count, fields[next].name == name {
            next += 1
            return next - 1
        }
        guard let i = schema.fieldIndex[name] else {
            throw StoreError.unsupportedModel(type: schema.name, reason: "it encodes a key '\(name)' that its schema does not have")
        }
        next = i + 1
        return i
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RowKeyedEncoder<Key>(encoder: self))
    }
    func unkeyedContainer() -> UnkeyedEncodingContainer { ValueEncoder().unkeyedContainer() }
    func singleValueContainer() -> SingleValueEncodingContainer { ValueEncoder().singleValueContainer() }
}

struct RowKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RowEncoder
    var codingPath: [CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { encoder.row[try encoder.slot(key.stringValue)] = .null }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.row[try encoder.slot(key.stringValue)] = .int(Int64(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.row[try encoder.slot(key.stringValue)] = .string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { encoder.row[try encoder.slot(key.stringValue)] = .double(value) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.row[try encoder.slot(key.stringValue)] = .bool(value) }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { encoder.row[try encoder.slot(key.stringValue)] = value.map { .int(Int64($0)) } ?? .null }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { encoder.row[try encoder.slot(key.stringValue)] = value.map { .string($0) } ?? .null }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { encoder.row[try encoder.slot(key.stringValue)] = value.map { .double($0) } ?? .null }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { encoder.row[try encoder.slot(key.stringValue)] = value.map { .bool($0) } ?? .null }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encoder.row[try encoder.slot(key.stringValue)] = .null }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let i = try encoder.slot(key.stringValue)
        // A link field holds a model or an array of them, never a scalar: it is not tried as
        // one (about twenty failed casts per field).
        switch encoder.schema.linkKinds[i] {
        case .none:
            if let scalar = scalarStoreValue(value) {
                encoder.row[i] = scalar
            } else {
                encoder.row[i] = try ValueEncoder.encode(value)
            }
        case .link:
            if let object = value as? any StoreObject {
                encoder.linked.append(object)
                encoder.row[i] = object.primaryKeyValue
            } else {
                encoder.row[i] = .null
            }
        case .linkList:
            // Read in place: a cast to `[any StoreObject]` would build a second array.
            if let listType = LinkListTypes.type(of: T.self, in: encoder.listTypes) {
                encoder.row[i] = .list(withUnsafePointer(to: value) { listType.linkKeys(at: UnsafeRawPointer($0), into: &encoder.linked) })
                return
            }
            var keys: [StoreValue] = []
            if let objects = value as? [any StoreObject] {
                keys.reserveCapacity(objects.count)
                for object in objects {
                    encoder.linked.append(object)
                    keys.append(object.primaryKeyValue)
                }
            }
            encoder.row[i] = .list(keys)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        ValueEncoder().container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { ValueEncoder().unkeyedContainer() }
    mutating func superEncoder() -> Encoder { ValueEncoder() }
    mutating func superEncoder(forKey key: Key) -> Encoder { ValueEncoder() }
}

// MARK: - Row → object

/// What decoding many objects of one snapshot learns once and reuses: the linked objects
/// already built (pizzas of one menu share a handful of categories; each is decoded once per
/// read, not once per pizza), how each field type decodes, and schemas. One context serves one
/// read on one thread (a `toArray`, one iteration), never two snapshots.
final class DecodeContext {
    /// Links at this depth or deeper are memoised. A read of many objects memoises from depth 1
    /// (their shared links); decoding one object only from depth 2, where memoising is what
    /// keeps cyclic link graphs linear, and costs nothing for the common shallow object.
    private let memoDepth: Int

    /// - Parameter forOneObject: `true` when the context serves one object's decoding.
    init(forOneObject: Bool = false) {
        memoDepth = forOneObject ? 2 : 1
    }
    /// How a field of some `Decodable` type is read from its stored value.
    enum FieldKind {
        /// A to-one link to a model.
        case model(any StoreObject.Type)
        /// A to-many link: an array of a model.
        case models(any StoreObject.Type)
        /// Anything else: a scalar or an embedded value.
        case value
    }

    private struct LinkKey: Hashable {
        let type: ObjectIdentifier
        let key: StoreValue
        let depth: Int
    }

    private var kinds: [ObjectIdentifier: FieldKind] = [:]
    private var schemas: [ObjectIdentifier: ObjectSchema] = [:]
    private var linked: [LinkKey: any StoreObject] = [:]

    private struct ListKey: Hashable {
        let type: ObjectIdentifier
        let keys: [StoreValue]
        let depth: Int
    }

    private var lists: [ListKey: Any] = [:]
    /// The lists last met, by a cheap mix of their integer keys: reads link to a handful of
    /// lists, and comparing keys costs a fraction of hashing them for `lists` on every object.
    /// Made at the first list stored: a read of one object (a lookup by key) never needs it.
    private var recentLists: [(key: ListKey, list: Any)?] = []

    /// The typed array (`[Category]`) of the objects at `keys`, built once per read.
    func linkedArray(_ type: ObjectIdentifier, keys: [StoreValue], depth: Int, build: () throws -> Any) rethrows -> Any {
        // The list's objects sit one level below the object holding it.
        guard depth + 1 >= memoDepth else { return try build() }
        var mix = UInt(bitPattern: type)
        for key in keys {
            guard case .int(let k) = key else { mix = 0; break }
            mix = (mix ^ UInt(truncatingIfNeeded: k)) &* 0x9E37_79B9_7F4A_7C15
        }
        let recent = Int(truncatingIfNeeded: mix >> 58)
        if mix != 0, !recentLists.isEmpty, let (key, list) = recentLists[recent], key.type == type, key.depth == depth,
           key.keys == keys { return list }
        let listKey = ListKey(type: type, keys: keys, depth: depth)
        let list: Any
        if let known = lists[listKey] {
            list = known
        } else {
            list = try build()
            lists[listKey] = list
        }
        if mix != 0 {
            if recentLists.isEmpty { recentLists = Array(repeating: nil, count: 64) }
            recentLists[recent] = (listKey, list)
        }
        return list
    }

    /// The type last asked about and its kind: a read of many objects asks about the same
    /// field types over and over, and comparing one identifier beats hashing it.
    private var lastKind: (ObjectIdentifier, FieldKind)?

    func kind<T>(of type: T.Type) -> FieldKind {
        let id = ObjectIdentifier(type)
        if let (lastID, kind) = lastKind, lastID == id { return kind }
        if let known = kinds[id] {
            lastKind = (id, known)
            return known
        }
        let kind: FieldKind
        if let model = type as? any StoreObject.Type {
            kind = .model(model)
        } else if let array = type as? any ArrayProbe.Type, let model = array.elementType as? any StoreObject.Type {
            kind = .models(model)
        } else {
            kind = .value
        }
        kinds[id] = kind
        return kind
    }

    func schema(of type: any StoreObject.Type) throws -> ObjectSchema {
        let id = ObjectIdentifier(type)
        if let known = schemas[id] { return known }
        let schema = try ObjectSchema.of(type)
        schemas[id] = schema
        return schema
    }

    func linkedObject(_ type: any StoreObject.Type, key: StoreValue, depth: Int, build: () throws -> (any StoreObject)?) rethrows -> (any StoreObject)? {
        guard depth >= memoDepth else { return try build() }
        let linkKey = LinkKey(type: ObjectIdentifier(type), key: key, depth: depth)
        if let known = linked[linkKey] { return known }
        guard let object = try build() else { return nil }
        linked[linkKey] = object
        return object
    }
}

/// Decodes a model from a row; links are resolved in the snapshot the row came from.
final class RowDecoder: Decoder {
    let schema: ObjectSchema
    private(set) var row: Row
    let snapshot: Snapshot
    let depth: Int
    /// Shared by the decoders of one read (a one-off decode gets its own): each linked object
    /// is built once per depth, so even a model whose links form dense cycles decodes in time
    /// proportional to the objects times the depth limit, not exponential in it.
    let context: DecodeContext
    var next = 0
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    /// The ordinal of `name`; synthesized decoding asks in declaration order, so try that first.
    @inline(__always)
    func slot(_ name: String) -> Int? {
        let fields = schema.fields
        if next < fields.count, fields[next].name == name {
            next += 1
            return next - 1
        }
        guard let i = schema.fieldIndex[name] else { return nil }
        next = i + 1
        return i
    }

    init(schema: ObjectSchema, row: Row, snapshot: Snapshot, depth: Int, context: DecodeContext) {
        self.schema = schema
        self.row = row
        self.snapshot = snapshot
        self.depth = depth
        self.context = context
    }

    /// Decodes one object after another of a read with one decoder: `reuse` is the decoder
    /// of the previous object, taken again when nothing kept it (a model's `init(from:)` may
    /// keep its decoder), else replaced by a fresh one. Saves an allocation per object.
    static func decode<T: StoreObject>(_ type: T.Type, row: Row, schema: ObjectSchema, snapshot: Snapshot, context: DecodeContext, reusing reuse: inout RowDecoder?) throws -> T {
        if reuse != nil, isKnownUniquelyReferenced(&reuse!) {
            reuse!.row = row
            reuse!.next = 0
        } else {
            reuse = RowDecoder(schema: schema, row: row, snapshot: snapshot, depth: 0, context: context)
        }
        return try T(from: reuse!)
    }

    static func decode<T: StoreObject>(_ type: T.Type, row: Row, schema: ObjectSchema, snapshot: Snapshot, depth: Int = 0, context: DecodeContext? = nil) throws -> T {
        try T(from: RowDecoder(schema: schema, row: row, snapshot: snapshot, depth: depth, context: context ?? DecodeContext(forOneObject: true)))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowKeyedDecoder<Key>(decoder: self))
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { throw mismatch([Any].self, .null) }
    func singleValueContainer() throws -> SingleValueDecodingContainer { throw mismatch(Any.self, .null) }

    func resolve(_ type: any StoreObject.Type, key: StoreValue) throws -> (any StoreObject)? {
        guard depth < 32 else { return nil }
        let schema = try context.schema(of: type)
        return try context.linkedObject(type, key: key, depth: depth + 1) {
            try build(type, key: key, schema: schema)
        }
    }

    private func build(_ type: any StoreObject.Type, key: StoreValue, schema: ObjectSchema) throws -> (any StoreObject)? {
        guard let table = snapshot.tables[schema.name], let row = table.row(forKey: key) else { return nil }
        return try type.init(from: RowDecoder(schema: schema, row: row, snapshot: snapshot, depth: depth + 1, context: context))
    }
}

struct RowKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RowDecoder
    var codingPath: [CodingKey] { [] }
    var allKeys: [Key] { decoder.schema.fields.compactMap { Key(stringValue: $0.name) } }

    @inline(__always)
    func value(_ key: Key) throws -> StoreValue {
        guard let i = decoder.slot(key.stringValue) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no field \(key.stringValue) in \(decoder.schema.name)"))
        }
        return decoder.row[i]
    }

    func contains(_ key: Key) -> Bool { decoder.schema.fieldIndex[key.stringValue] != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        if case .int(let v) = try value(key) { return Int(truncatingIfNeeded: v) }
        throw mismatch(type, try value(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        if case .string(let v) = try value(key) { return v }
        throw mismatch(type, try value(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let v = try value(key)
        if case .double(let d) = v { return d }
        if let d = scalarFromStore(v, as: Double.self) { return d }
        throw mismatch(type, v)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if case .bool(let v) = try value(key) { return v }
        throw mismatch(type, try value(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeValue(type, try value(key))
    }

    private func decodeValue<T: Decodable>(_ type: T.Type, _ v: StoreValue) throws -> T {
        switch decoder.context.kind(of: type) {
        case .model(let model): return try decodeLink(type, model, v)
        case .models(let model): return try decodeLinks(type, model, v)
        case .value: return try decodePlain(type, v)
        }
    }

    // Kept out of `decodeValue`: its optional of `T` made the runtime look up the type
    // `Optional<T>` on every call, links included (about 330 instructions per object).
    @inline(never)
    private func decodePlain<T: Decodable>(_ type: T.Type, _ v: StoreValue) throws -> T {
        if let scalar = scalarFromStore(v, as: type) { return scalar }
        return try ValueDecoder.decode(type, from: v)
    }

    private func decodeLink<T>(_ type: T.Type, _ model: any StoreObject.Type, _ v: StoreValue) throws -> T {
        guard let object = try decoder.resolve(model, key: v) as? T else {
            throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "linked \(model) \(v.literal) is not in the store"))
        }
        return object
    }

    private func decodeLinks<T>(_ type: T.Type, _ model: any StoreObject.Type, _ v: StoreValue) throws -> T {
        guard case .list(let keys) = v else { throw mismatch(type, v) }
        let context = decoder.context
        // Many objects link to the same few lists (a menu's pizzas to a handful of category
        // combinations): build each typed array once per read.
        let built = try context.linkedArray(ObjectIdentifier(type), keys: keys, depth: decoder.depth) {
            try buildLinks(type, model, keys)
        }
        // The lists are kept by type (`ObjectIdentifier(type)` above) and `buildLinks` returns a
        // `T`, so this cast cannot fail; a forced one, unlike `as?`, needs no `Optional<T>`,
        // which the runtime looked up on every call.
        return built as! T
    }

    private func buildLinks<T>(_ type: T.Type, _ model: any StoreObject.Type, _ keys: [StoreValue]) throws -> T {
        var objects: [any StoreObject] = []
        objects.reserveCapacity(keys.count)
        for k in keys {
            if let object = try decoder.resolve(model, key: k) { objects.append(object) }
        }
        return try castArray(objects, to: type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let i = decoder.slot(key.stringValue) else { return nil }
        let v = decoder.row[i]
        if v.isNull { return nil }
        // An optional to-one link whose object is gone reads as nil, not as an error.
        if case .model(let model) = decoder.context.kind(of: type) {
            return try decoder.resolve(model, key: v) as? T
        }
        return try decodeValue(type, v)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(try value(key)).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try ValueDecoder(try value(key)).unkeyedContainer()
    }
    func superDecoder() throws -> Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> Decoder { ValueDecoder(try value(key)) }
}

/// Rebuilds a typed array (e.g. `[Category]`) from existentials.
func castArray<T>(_ objects: [any StoreObject], to type: T.Type) throws -> T {
    // Decoding through an unkeyed container of already-built values keeps this generic.
    let decoder = PrebuiltDecoder(objects: objects)
    guard let decodable = type as? any Decodable.Type, let result = try decodable.init(from: decoder) as? T else {
        throw mismatch(type, .null)
    }
    return result
}

final class PrebuiltDecoder: Decoder {
    let objects: [any StoreObject]
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    init(objects: [any StoreObject]) { self.objects = objects }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw mismatch(type, .null) }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { PrebuiltUnkeyed(objects: objects) }
    func singleValueContainer() throws -> SingleValueDecodingContainer { throw mismatch(Any.self, .null) }
}

struct PrebuiltUnkeyed: UnkeyedDecodingContainer {
    let objects: [any StoreObject]
    var codingPath: [CodingKey] { [] }
    var count: Int? { objects.count }
    var isAtEnd: Bool { currentIndex >= objects.count }
    var currentIndex = 0
    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let v = objects[currentIndex] as? T else { throw mismatch(type, .null) }
        currentIndex += 1
        return v
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> { throw mismatch(type, .null) }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { throw mismatch([Any].self, .null) }
    mutating func superDecoder() throws -> Decoder { throw mismatch(Any.self, .null) }
}
