import Foundation

/// Which objects of one model a commit changed: their own fields, or an object they link to
/// directly (so a renamed `Category` reports the `Pizza`s that show it as modified), and which
/// it inserted.
///
/// One commit's change set asks ``isModified(_:)``. A change set that folds several commits
/// asks ``isModifiedOrInserted(_:)`` of each: an object deleted by one commit and added back by
/// a later one is kept in the list, and counts as modified.
struct ChangedObjects {
    private let own: [StoreValue: ChangedFields]
    private let links: [(field: Int, changes: TableChanges)]
    private let table: TableState?
    private let inserted: Set<StoreValue>

    init(schema: ObjectSchema, commit: CommitChanges) {
        own = commit.tables[schema.name]?.modified ?? [:]
        inserted = commit.tables[schema.name]?.inserted ?? []
        table = commit.new.table(schema)
        var links: [(Int, TableChanges)] = []
        for (i, field) in schema.fields.enumerated() {
            switch field.kind {
            case .link(let ref), .linkList(let ref):
                if let changes = commit.tables[ref.name] { links.append((i, changes)) }
            default: break
            }
        }
        self.links = links
    }

    /// Whether the commit changed the object's fields or an object it links to.
    func isModified(_ key: StoreValue) -> Bool {
        if own[key] != nil { return true }
        guard !links.isEmpty, let row = table?.row(forKey: key) else { return false }
        for (field, changes) in links {
            let touched: (StoreValue) -> Bool = { changes.modified[$0] != nil || changes.deleted.contains($0) || changes.inserted.contains($0) }
            switch row[field] {
            case .list(let keys): if keys.contains(where: touched) { return true }
            case .null: break
            case let value: if touched(value) { return true }
            }
        }
        return false
    }

    /// Whether the commit inserted the object, or modified it (``isModified(_:)``).
    func isModifiedOrInserted(_ key: StoreValue) -> Bool {
        inserted.contains(key) || isModified(key)
    }
}
