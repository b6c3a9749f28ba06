import Foundation

/// Moves a store file's data from an older schema version to the models of the code, in the
/// configuration's `migration` closure (Realm's `Migration`).
///
/// Before the closure runs, every stored object already has a *new* form: fields with the same
/// name keep their value, new fields get a default (`nil` when optional, else zero, `""`,
/// `false`, an empty list…) and removed fields are dropped. The closure then adjusts what the
/// automatic step cannot know:
///
///     let configuration = Store.Configuration.file(url: url, objectTypes: [Person.self], schemaVersion: 2) { migration, oldVersion in
///         if oldVersion < 1 { migration.renameProperty(onType: "Person", from: "name", to: "fullName") }
///         if oldVersion < 2 {
///             migration.enumerateObjects(ofType: "Person") { old, new in
///                 new?["age"] = (old?["birthYear"] as? Int).map { 2024 - $0 } ?? 0
///             }
///         }
///     }
///
/// Migrations work on the stored records through ``MigrationObject`` (values by field name), so
/// they run even when the old Swift types no longer exist. The whole migration is one atomic
/// step: the migrated data is written to a new file that replaces the old one only when
/// complete; if the closure throws, the file is left as it was.
public final class Migration {
    /// One stored type during the migration.
    final class Table {
        let name: String
        let oldSchema: ObjectSchema?
        let newSchema: ObjectSchema
        var old: [MigrationObject] = []
        var new: [MigrationObject?] = []
        init(name: String, oldSchema: ObjectSchema?, newSchema: ObjectSchema) {
            self.name = name
            self.oldSchema = oldSchema
            self.newSchema = newSchema
        }
    }

    var tables: [String: Table] = [:]
    let codeSchemas: [String: ObjectSchema]
    var problems: [String] = []

    init(tables stored: [String: TableState], codeSchemas: [String: ObjectSchema]) {
        self.codeSchemas = codeSchemas
        for (name, state) in stored {
            let newSchema = codeSchemas[name] ?? state.schema
            let table = Table(name: name, oldSchema: state.schema, newSchema: newSchema)
            let mapping: [Int?] = newSchema.fields.map { state.schema.fieldIndex[$0.name] }
            state.forEachRow { _, row in
                table.old.append(MigrationObject(schema: state.schema, row: row, isOld: true, migration: self))
                var fresh = Row()
                fresh.reserveCapacity(newSchema.fields.count)
                for (j, source) in mapping.enumerated() {
                    fresh.append(source.map { row[$0] } ?? Migration.defaultValue(newSchema.fields[j]))
                }
                table.new.append(MigrationObject(schema: newSchema, row: fresh, isOld: false, migration: self))
            }
            tables[name] = table
        }
    }

    /// Runs a migration and returns the migrated tables.
    static func run(tables: [String: TableState], codeSchemas: [String: ObjectSchema], oldSchemaVersion: UInt64,
                    block: ((Migration, UInt64) throws -> Void)?) throws -> [String: TableState] {
        let migration = Migration(tables: tables, codeSchemas: codeSchemas)
        try block?(migration, oldSchemaVersion)
        return try migration.result()
    }

    // MARK: Realm's migration API

    /// Calls `block` once per object stored under `typeName` before the migration, with the
    /// object as it was (read-only, old fields) and as it will be (new fields, writable; `nil`
    /// once deleted).
    ///
    /// - Parameters:
    ///   - typeName: The model's name (`String(describing:)` of its type, e.g. `"Person"`).
    ///   - block: Reads `oldObject`, writes `newObject`.
    /// - Throws: What `block` throws (the migration then fails and the file is left as it was).
    public func enumerateObjects(ofType typeName: String, _ block: (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) throws -> Void) rethrows {
        guard let table = tables[typeName] else { return }
        for i in table.old.indices {
            let new = i < table.new.count ? table.new[i] : nil
            try block(table.old[i], new?.isDeleted == false ? new : nil)
        }
    }

    /// Moves the values of a field to a field of another name (the old field is gone from the
    /// new model, the new one did not exist in the old).
    ///
    /// - Parameters:
    ///   - typeName: The model's name.
    ///   - oldName: The field's name in the stored data.
    ///   - newName: Its name in the current model.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        guard let table = tables[typeName], let oldSchema = table.oldSchema else {
            problems.append("renameProperty: no stored type \(typeName)")
            return
        }
        guard let from = oldSchema.fieldIndex[oldName] else {
            problems.append("renameProperty: \(typeName) had no field \(oldName)")
            return
        }
        guard let to = table.newSchema.fieldIndex[newName] else {
            problems.append("renameProperty: \(typeName) has no field \(newName) (list the model in objectTypes)")
            return
        }
        for (i, object) in table.new.enumerated() where i < table.old.count {
            object?.row[to] = table.old[i].row[from]
        }
    }

    /// Deletes every object of a type, and the type itself when the code no longer has it.
    ///
    /// - Parameter typeName: The model's name.
    /// - Returns: Whether the file stored that type.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        tables.removeValue(forKey: typeName) != nil
    }

    /// Creates an object of a current model from field values.
    ///
    /// - Parameters:
    ///   - typeName: The model's name; it must be listed in the configuration's `objectTypes`.
    ///   - value: Field values by name; missing fields get their defaults.
    /// - Returns: The new object, writable like a `newObject`.
    @discardableResult
    public func create(_ typeName: String, value: [String: Any] = [:]) -> MigrationObject {
        let table: Table
        if let existing = tables[typeName] {
            table = existing
        } else {
            let schema = codeSchemas[typeName] ?? ObjectSchema(name: typeName, fields: [], primaryKeyIndex: 0, type: nil)
            if codeSchemas[typeName] == nil { problems.append("create: \(typeName) is not a model in objectTypes") }
            table = Table(name: typeName, oldSchema: nil, newSchema: schema)
            tables[typeName] = table
        }
        let row = table.newSchema.fields.map(Migration.defaultValue)
        let object = MigrationObject(schema: table.newSchema, row: row, isOld: false, migration: self)
        for (key, v) in value { object[key] = v }
        table.new.append(object)
        return object
    }

    /// Deletes an object (a `newObject` of ``enumerateObjects(ofType:_:)`` or a created one).
    ///
    /// - Parameter object: The object to delete.
    public func delete(_ object: MigrationObject) {
        if object.isOld { problems.append("delete: old objects are read-only; delete the new one") }
        object.isDeleted = true
    }

    // MARK: Machinery

    static func defaultValue(_ field: FieldSchema) -> StoreValue {
        field.isOptional ? .null : defaultValue(field.kind)
    }

    static func defaultValue(_ kind: FieldKind) -> StoreValue {
        switch kind {
        case .int: return .int(0)
        case .double: return .double(0)
        case .bool: return .bool(false)
        case .string: return .string("")
        case .date: return .date(Date(timeIntervalSince1970: 0))
        case .data: return .data(Data())
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .decimal: return .decimal(0)
        case .list, .linkList: return .list([])
        case .embedded(let fields): return .map(fields.mapValues(defaultValue))
        case .link: return .null
        }
    }

    func result() throws -> [String: TableState] {
        if let problem = problems.first { throw StoreError.migrationFailed(reason: problem) }
        var out: [String: TableState] = [:]
        for (name, table) in tables {
            let schema = table.newSchema
            guard !schema.fields.isEmpty else { continue }
            let checks = ValueCheck.checks(for: schema)
            var state = TableState(schema: schema)
            for object in table.new {
                guard let object, !object.isDeleted else { continue }
                let key = object.row[schema.primaryKeyIndex]
                if key.isNull { throw StoreError.migrationFailed(reason: "a \(name) has no primary key \(schema.fields[schema.primaryKeyIndex].name)") }
                if state.pkIndex[key] != nil {
                    throw StoreError.migrationFailed(reason: "two \(name) objects have the primary key \(key.literal)")
                }
                for (i, field) in schema.fields.enumerated() where !field.isOptional && object.row[i].isNull {
                    if case .link = field.kind { continue }
                    if schema.type == nil { break }
                    throw StoreError.migrationFailed(reason: "\(name) \(key.literal) has no value for its required field \(field.name)")
                }
                if let problem = ValueCheck.problem(in: object.row, schema: schema, checks: checks) {
                    throw StoreError.migrationFailed(reason: "\(problem) (\(name) \(key.literal))")
                }
                state.insert(object.row)
            }
            out[name] = state
        }
        return out
    }
}

/// A stored object during a migration: its values by field name, whether or not a Swift type
/// for it exists (Realm's `MigrationObject`).
///
/// Values read as plain Swift values (`Int`, `Double`, `String`, `Bool`, `Date`, `Data`, `UUID`,
/// `Decimal`, arrays, and `[String: Any]` for embedded values); links read as the primary key of
/// the linked object. Assigning converts back (assigning a model object stores its key).
public final class MigrationObject {
    let schema: ObjectSchema
    var row: Row
    let isOld: Bool
    var isDeleted = false
    unowned let migration: Migration

    init(schema: ObjectSchema, row: Row, isOld: Bool, migration: Migration) {
        self.schema = schema
        self.row = row
        self.isOld = isOld
        self.migration = migration
    }

    /// The model's name.
    public var typeName: String { schema.name }

    /// The field names, in the order of the schema this object has (old or new).
    public var fieldNames: [String] { schema.fieldNames }

    /// A field's value; `nil` for a null value or a field this object does not have. Setting
    /// a field the object does not have, or any field of an old object, fails the migration.
    ///
    /// - Parameter key: The field name.
    public subscript(key: String) -> Any? {
        get { storeValue(forKey: key)?.anyValue }
        set {
            guard !isOld else {
                migration.problems.append("old objects are read-only (setting \(schema.name).\(key))")
                return
            }
            guard let i = schema.fieldIndex[key] else {
                migration.problems.append("\(schema.name) has no field \(key)")
                return
            }
            guard let value = MigrationObject.convert(newValue) else {
                migration.problems.append("\(schema.name).\(key): cannot store a \(type(of: newValue!))")
                return
            }
            row[i] = value
        }
    }

    /// A field's stored value (for exact control, e.g. telling an integer from a double).
    ///
    /// - Parameter key: The field name.
    /// - Returns: The value, or `nil` when the object has no such field.
    public func storeValue(forKey key: String) -> StoreValue? {
        schema.fieldIndex[key].map { row[$0] }
    }

    static func convert(_ value: Any?) -> StoreValue? {
        if let v = StoreValue.from(any: value) { return v }
        if let encodable = value as? any Encodable { return try? encode(encodable) }
        return nil
    }

    private static func encode<T: Encodable>(_ value: T) throws -> StoreValue { try ValueEncoder.encode(value) }
}
