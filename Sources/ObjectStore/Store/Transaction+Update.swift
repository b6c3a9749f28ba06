import Foundation

extension Transaction {
    /// Reads the object with this primary key, lets `body` change it, and writes it back: the
    /// value-type form of Realm's "change the object inside `write`".
    ///
    ///     try store.write { tx in
    ///         try tx.update(Todo.self, forPrimaryKey: id) { $0.isDone.toggle() }
    ///     }
    ///
    /// The object is read as this transaction sees it (earlier changes in the same block
    /// included) and written back with `.modified` semantics: only the fields `body` changed are
    /// written, observers see one modification of the object (none when nothing changed), and
    /// the objects it links to are written back too, as ``add(_:update:)-(T,_)`` does.
    ///
    /// - Parameters:
    ///   - type: The model type.
    ///   - key: The primary key of the object to change.
    ///   - body: Changes the object; an error it throws rolls back the whole transaction.
    /// - Returns: The object as written.
    /// - Throws: ``StoreError/objectNotFound(type:key:)`` when no object has `key`,
    ///   ``StoreError/primaryKeyChanged(type:key:newKey:)`` when `body` changes the primary key,
    ///   ``StoreError/transactionClosed``, or what `body` throws.
    @discardableResult
    public func update<T: StoreObject>(_ type: T.Type, forPrimaryKey key: T.PrimaryKey, _ body: (inout T) throws -> Void) throws -> T {
        try checkOpen()
        let schema = try ObjectSchema.of(type)
        let snapshot = current()
        guard let row = snapshot.table(schema)?.row(forKey: key.storeValue) else {
            throw StoreError.objectNotFound(type: schema.name, key: key.storeValue.literal)
        }
        var object = try RowDecoder.decode(type, row: row, schema: schema, snapshot: snapshot)
        try body(&object)
        let newKey = object[keyPath: T.primaryKey]
        guard newKey == key else {
            throw StoreError.primaryKeyChanged(type: schema.name, key: key.storeValue.literal, newKey: newKey.storeValue.literal)
        }
        try add(object, update: .modified)
        return object
    }

    /// ``update(_:forPrimaryKey:_:)`` without the label: `try tx.update(Todo.self, id) { $0.title = "Dough" }`.
    ///
    /// - Parameters:
    ///   - type: The model type.
    ///   - key: The primary key of the object to change.
    ///   - body: Changes the object; an error it throws rolls back the whole transaction.
    /// - Returns: The object as written.
    /// - Throws: As ``update(_:forPrimaryKey:_:)``.
    @discardableResult
    public func update<T: StoreObject>(_ type: T.Type, _ key: T.PrimaryKey, _ body: (inout T) throws -> Void) throws -> T {
        try update(type, forPrimaryKey: key, body)
    }
}
