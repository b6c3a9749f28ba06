import Foundation

/// The handle a ``Store/write(_:)`` block receives: every change goes through it.
///
/// Changes are invisible to other readers until the block returns; reads through the
/// transaction (``object(ofType:forPrimaryKey:)``, ``objects(_:)``) see them at once.
/// Using a transaction after its block ended throws ``StoreError/transactionClosed``.
public final class Transaction {
    let core: StoreCore
    let base: Snapshot
    // The transaction's state is used by the writing thread alone, one access at a time: the
    // hot properties skip the runtime's exclusivity check (about 120 instructions per access,
    // several per object written).
    @exclusivity(unchecked) var tables: [String: TableState]
    @exclusivity(unchecked) var changes: [String: TableChanges] = [:]
    @exclusivity(unchecked) var log: [ChangeRecord] = []
    /// Linked objects' rows as this transaction last wrote them or found them stored (see
    /// ``putLinked(_:schema:policy:)``), and the schemas they belong to.
    @exclusivity(unchecked) private var linkedRows: [VisitKey: Row] = [:]
    /// The encoding of the row a `.modified` write compares with a stored one (reused).
    @exclusivity(unchecked) private var encoded = EncodedRow()
    private var linkedSchemas: [ObjectSchema] = []
    /// The model last linked: its schema, and whether its values are known by their bytes
    /// (``LinkedValues/bytesTellValues(_:)``, for a model without links).
    @exclusivity(unchecked) private var lastLinkedSchema: (ObjectIdentifier, ObjectSchema, Bool)?
    /// Linked objects' values whose rows `linkedRows` keeps, known again by their bytes.
    @exclusivity(unchecked) private var linkedValues: LinkedValues?
    /// The to-many link types the transaction's encoders have met.
    private let listTypes = LinkListTypes()
    /// About how many objects the `add` running adds (its sequence's `underestimatedCount`).
    @exclusivity(unchecked) private var expectedObjects = 1
    private var isOpen = true

    init(core: StoreCore, base: Snapshot) {
        self.core = core
        self.base = base
        self.tables = base.tables
    }

    func close() { isOpen = false }

    func checkOpen() throws {
        if !isOpen { throw StoreError.transactionClosed }
    }

    // MARK: Adding

    /// Adds an object, and the objects it links to.
    ///
    /// - Parameters:
    ///   - object: The object to store.
    ///   - update: What to do when its primary key is already stored (default `.error`).
    /// - Throws: ``StoreError/duplicatePrimaryKey(type:key:)`` under `.error`, or
    ///   ``StoreError/unsupportedModel(type:reason:)``.
    public func add<T: StoreObject>(_ object: T, update: Store.UpdatePolicy = .error) throws {
        try checkOpen()
        var visited = VisitedObjects()
        try addTree(object, schema: ObjectSchema.of(T.self), update: update, visited: &visited)
    }

    /// Adds every object of a sequence (see ``add(_:update:)``).
    ///
    /// - Parameters:
    ///   - objects: The objects to store.
    ///   - update: What to do for keys already stored.
    /// - Throws: As ``add(_:update:)``; the whole transaction then rolls back.
    public func add<S: Sequence>(_ objects: S, update: Store.UpdatePolicy = .error) throws where S.Element: StoreObject {
        try checkOpen()
        let schema = try ObjectSchema.of(S.Element.self)
        var visited = VisitedObjects()
        expectedObjects = objects.underestimatedCount
        defer { expectedObjects = 1 }
        for object in objects {
            visited.removeAll()
            try addTree(object, schema: schema, update: update, visited: &visited)
        }
    }

    struct VisitKey: Hashable {
        let table: ObjectIdentifier
        let key: StoreValue
    }

    /// The objects one object's `add` has reached: a handful as a rule (the object and what
    /// it links to), looked for along a short array; hashed only when there are many.
    struct VisitedObjects {
        private var few: [VisitKey] = []
        private var many: Set<VisitKey> = []

        var isEmpty: Bool { few.isEmpty }

        /// Adds `key`; whether it was not there yet.
        mutating func insert(_ key: VisitKey) -> Bool {
            if few.count < 16 {
                if few.contains(key) { return false }
                few.append(key)
                return true
            }
            if few.contains(key) { return false }
            return many.insert(key).inserted
        }

        mutating func removeAll() {
            few.removeAll(keepingCapacity: true)
            if !many.isEmpty { many.removeAll(keepingCapacity: true) }
        }
    }

    /// Writes `object`, then the objects it links to. Within one `add`, an object reached again
    /// through links (a nested, possibly older copy) does not overwrite the one written first.
    /// Returns the row of a linked object when its stored row now equals it and the
    /// transaction keeps it (see ``putLinked(_:schema:policy:)``).
    @discardableResult
    private func addTree<T: StoreObject>(_ object: T, schema: ObjectSchema, update: Store.UpdatePolicy, visited: inout VisitedObjects,
                                         isLinked: Bool = false) throws -> Row? {
        let (row, linked) = try RowEncoder.encode(object, schema: schema, listTypes: listTypes)
        if !linked.isEmpty || !visited.isEmpty {
            guard visited.insert(VisitKey(table: ObjectIdentifier(schema), key: row[schema.primaryKeyIndex])) else { return nil }
        }
        var kept = false
        if isLinked {
            kept = try putLinked(row, schema: schema, policy: update)
        } else {
            try put(row, schema: schema, policy: update)
        }
        for child in linked { try addLinked(child, update: update, visited: &visited) }
        return kept ? row : nil
    }

    private func addLinked<T: StoreObject>(_ object: T, update: Store.UpdatePolicy, visited: inout VisitedObjects) throws {
        // The schema of the model last linked, kept: a lookup in the shared cache takes its lock.
        let schema: ObjectSchema, plain: Bool
        if let (type, known, isPlain) = lastLinkedSchema, type == ObjectIdentifier(T.self) {
            (schema, plain) = (known, isPlain)
        } else {
            schema = try ObjectSchema.of(T.self)
            plain = !schema.linkKinds.contains { $0 != .none } && LinkedValues.bytesTellValues(object)
            lastLinkedSchema = (ObjectIdentifier(T.self), schema, plain)
        }
        guard update == .modified, plain else {
            try addTree(object, schema: schema, update: update, visited: &visited, isLinked: true)
            return
        }
        // The same value as one written (or found stored) earlier in the transaction: the
        // same row, so the write would be skipped; it is known without encoding it.
        if let key = linkedValues?.key(of: object) {
            _ = visited.insert(VisitKey(table: ObjectIdentifier(schema), key: key))
            return
        }
        guard let row = try addTree(object, schema: schema, update: update, visited: &visited, isLinked: true),
              !row.contains(where: \.readsBackUnequal) else { return }
        if linkedValues == nil { linkedValues = LinkedValues() }
        linkedValues!.keep(object, key: row[schema.primaryKeyIndex])
    }

    /// How many linked objects' rows a transaction keeps for ``putLinked(_:schema:policy:)``.
    static let linkedRowsLimit = 4_096

    /// Writes the row of a linked object. Many objects of one transaction link the same few
    /// (a menu's pizzas, their categories), so the row each was last written with, or found
    /// stored as, in this transaction is kept: a `.modified` write of a row equal to it is the
    /// write of an unchanged object, skipped without looking the stored row up. Any other row
    /// goes through ``put(_:schema:policy:)`` as ever, so one that differs is written and
    /// reported, and every change to the table forgets what was kept of the object.
    /// Returns whether the row is kept.
    private func putLinked(_ row: Row, schema: ObjectSchema, policy: Store.UpdatePolicy) throws -> Bool {
        let key = VisitKey(table: ObjectIdentifier(schema), key: row[schema.primaryKeyIndex])
        if policy == .modified, let known = linkedRows[key], known == row { return true }
        try put(row, schema: schema, policy: policy)
        // The stored row now equals `row`: inserted, replaced, or found equal.
        guard linkedRows.count < Self.linkedRowsLimit else { return false }
        linkedRows[key] = row
        if !linkedSchemas.contains(where: { $0 === schema }) { linkedSchemas.append(schema) }
        return true
    }

    /// Forgets the kept row of the object `key` of table `name` (it is about to change).
    @inline(__always)
    private func forgetLinked(_ key: StoreValue, table name: String) {
        guard !linkedSchemas.isEmpty else { return }
        for schema in linkedSchemas where schema.name == name {
            // The values known by their bytes are forgotten with it.
            if linkedRows.removeValue(forKey: VisitKey(table: ObjectIdentifier(schema), key: key)) != nil {
                linkedValues?.generation += 1
            }
        }
    }

    func put(_ row: Row, schema: ObjectSchema, policy: Store.UpdatePolicy) throws {
        let name = schema.name
        let key = row[schema.primaryKeyIndex]
        forgetLinked(key, table: name)
        // The table changes in place in the dictionary: one hash, and uniquely referenced.
        try put(row, key: key, schema: schema, policy: policy, in: &tables[name, default: TableState(schema: schema)])
    }

    private func put(_ row: Row, key: StoreValue, schema: ObjectSchema, policy: Store.UpdatePolicy, in table: inout TableState) throws {
        let name = schema.name
        if table.schema !== schema { checkLayout(stored: table.schema, code: schema) }
        encoded.holdsRow = false
        let found: (slot: Int, fields: [Int])?
        switch policy {
        case .modified:
            // Compared with the stored row's bytes where it has them, without decoding it.
            found = table.modifiedFields(forKey: key, row: row, encoded: &encoded)
        case .error, .all:
            found = table.slot(forKey: key, sharing: false).map { ($0, []) }
        }
        if let (slot, modified) = found {
            let fields: [Int]
            switch policy {
            case .error:
                throw StoreError.duplicatePrimaryKey(type: name, key: key.literal)
            case .modified:
                fields = modified
                if fields.isEmpty { return }
            case .all:
                fields = (0..<row.count).filter { $0 != schema.primaryKeyIndex }
            }
            table.replace(slot: slot, with: row, encoded: encoded)
            changes[name, default: TableChanges()].recordUpdate(key, fields: fields, expected: expectedObjects)
            log.append(.update(table: name, key: key, fields: fields, values: fields.map { row[$0] }))
        } else {
            table.insert(row)
            changes[name, default: TableChanges()].recordInsert(key, fieldCount: row.count, expected: expectedObjects)
            log.append(.insert(table: name, row: row))
        }
    }

    // MARK: Deleting

    /// Deletes the stored object with the same primary key as `object` (if any).
    ///
    /// - Parameter object: The object to delete.
    /// - Throws: ``StoreError/transactionClosed``.
    public func delete<T: StoreObject>(_ object: T) throws {
        try checkOpen()
        try deleteKey(object.primaryKeyValue, schema: ObjectSchema.of(T.self))
    }

    /// Deletes every object of a sequence (for example a ``Results``).
    ///
    /// - Parameter objects: The objects to delete.
    /// - Throws: ``StoreError/transactionClosed``.
    public func delete<S: Sequence>(_ objects: S) throws where S.Element: StoreObject {
        try checkOpen()
        let schema = try ObjectSchema.of(S.Element.self)
        let keys = objects.map(\.primaryKeyValue)
        for key in keys { deleteKey(key, schema: schema) }
    }

    /// Deletes the object with the given primary key.
    ///
    /// - Parameters:
    ///   - type: The model type.
    ///   - key: The primary key.
    /// - Returns: Whether an object was deleted.
    /// - Throws: ``StoreError/transactionClosed``.
    @discardableResult
    public func delete<T: StoreObject>(_ type: T.Type, forPrimaryKey key: T.PrimaryKey) throws -> Bool {
        try checkOpen()
        return try deleteKey(key.storeValue, schema: ObjectSchema.of(type))
    }

    /// Deletes the objects matching a query (see the query grammar in the guide).
    ///
    ///     try tx.delete(where: Pizza.self, "price > %@", 2000)
    ///
    /// - Parameters:
    ///   - type: The model type.
    ///   - format: The query; `%@`/`$0` take `args`.
    ///   - args: The query's arguments.
    /// - Returns: How many objects were deleted.
    /// - Throws: ``QueryError`` for a bad query.
    @discardableResult
    public func delete<T: StoreObject>(where type: T.Type, _ format: String, _ args: Any...) throws -> Int {
        try checkOpen()
        let predicate = try StorePredicate(format: format, variadicArguments: args)
        let results = try objects(type).filter(checked: predicate)
        let schema = try ObjectSchema.of(type)
        let keys = results.primaryKeys()
        for key in keys { deleteKey(key, schema: schema) }
        return keys.count
    }

    /// Deletes every object of a type.
    ///
    /// - Parameter type: The model type.
    /// - Throws: ``StoreError/transactionClosed``.
    public func deleteAll<T: StoreObject>(_ type: T.Type) throws {
        try checkOpen()
        let schema = try ObjectSchema.of(type)
        guard let table = tables[schema.name] else { return }
        var keys: [StoreValue] = []
        table.forEachRow { _, row in keys.append(row[schema.primaryKeyIndex]) }
        for key in keys { deleteKey(key, schema: schema) }
    }

    /// Deletes every object of every type.
    ///
    /// - Throws: ``StoreError/transactionClosed``.
    public func deleteAll() throws {
        try checkOpen()
        for table in tables.values {
            var keys: [StoreValue] = []
            table.forEachRow { _, row in keys.append(row[table.schema.primaryKeyIndex]) }
            for key in keys { deleteKey(key, schema: table.schema) }
        }
    }

    @discardableResult
    func deleteKey(_ key: StoreValue, schema: ObjectSchema) -> Bool {
        let name = schema.name
        forgetLinked(key, table: name)
        guard let slot = tables[name]?.slot(forKey: key, sharing: false) else { return false }
        tables[name]!.delete(slot: slot)
        changes[name, default: TableChanges()].recordDelete(key)
        log.append(.delete(table: name, key: key))
        return true
    }

    // MARK: Reading inside the transaction

    /// The object with this primary key, including changes made earlier in this transaction.
    ///
    /// - Parameters:
    ///   - type: The model type.
    ///   - key: The primary key.
    /// - Returns: The object, or `nil`.
    public func object<T: StoreObject>(ofType type: T.Type, forPrimaryKey key: T.PrimaryKey) -> T? {
        let snapshot = current()
        let schema = schemaOrTrap(type)
        guard let row = snapshot.table(schema)?.row(forKey: key.storeValue) else { return nil }
        return try? RowDecoder.decode(type, row: row, schema: schema, snapshot: snapshot)
    }

    /// All objects of a type as they are at this point of the transaction (a fixed snapshot).
    ///
    /// - Parameter type: The model type.
    /// - Returns: Results pinned to the transaction's current state.
    public func objects<T: StoreObject>(_ type: T.Type) -> Results<T> {
        Results(core: core, schema: schemaOrTrap(type), pipeline: [], pinned: current())
    }

    func current() -> Snapshot { Snapshot(version: base.version, tables: tables) }
}
