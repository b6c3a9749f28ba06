import Foundation

/// An immutable committed version of the whole store. Readers hold one for as long as they
/// read, so they never see half of a write.
final class Snapshot: @unchecked Sendable {
    let version: Int
    let tables: [String: TableState]

    init(version: Int, tables: [String: TableState]) {
        self.version = version
        self.tables = tables
    }

    func table(_ schema: ObjectSchema) -> TableState? {
        guard let table = tables[schema.name] else { return nil }
        if table.schema !== schema { checkLayout(stored: table.schema, code: schema) }
        return table
    }
}

/// Traps when a model's fields no longer match the rows a store file holds for it (a model
/// changed without a migration and not listed in `objectTypes`, so the open could not catch it).
@inline(__always)
func checkLayout(stored: ObjectSchema, code: ObjectSchema) {
    if stored.layout != code.layout {
        preconditionFailure("""
            ObjectStore: the store holds \(code.name) objects with fields (\(stored.layoutDescription)) \
            but the model now has (\(code.layoutDescription)). List \(code.name) in the configuration's \
            objectTypes and raise schemaVersion (with a migration) so the store can migrate them.
            """)
    }
}
