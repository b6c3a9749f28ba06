/// Opens file stores one at a time: the core already open on a file in this process, or a new
/// one that opens (and locks) the file, found or registered in ``StoreRegistry``.
///
/// One lock, recursive and first in ``StoreCore``'s lock order: the open runs the app's
/// migration and `shouldCompactOnLaunch` closures with it held, and those may open, read and
/// write other stores. A store already open is found in the registry without it, so a write
/// block that makes a handle on an open file takes no open lock (see ``StoreCore``'s lock
/// order for a new file opened in a write block). The registry has a lock of its own, so that
/// in-memory stores open while a file store migrates.
enum FileStoreOpener {
    private static let lock = RecursiveStoreLock(.fileOpen)

    /// The core of the file store `configuration` describes.
    ///
    /// - Throws: What `StoreFile.open` throws: a damaged or foreign file, a
    ///   schema too new, a migration needed or failed, a file locked by another process.
    static func core(_ configuration: Store.Configuration) throws -> StoreCore {
        guard case .file(let path) = configuration.storage else { preconditionFailure("not a file configuration") }
        var codeSchemas: [String: ObjectSchema] = [:]
        var pending = try configuration.objectTypes.map { try ObjectSchema.of($0) }
        while let schema = pending.popLast() {
            guard codeSchemas[schema.name] == nil else { continue }
            codeSchemas[schema.name] = schema
            for field in schema.fields {
                switch field.kind {
                case .link(let ref), .linkList(let ref): pending.append(ref.schema)
                default: break
                }
            }
        }
        let key = (configuration.readOnly ? "file-read-only:" : "file:") + path
        if let core = StoreRegistry.core(for: key) { return core }
        return try lock.withLock {
            if let core = StoreRegistry.core(for: key) { return core }
            let options = FileOptions(
                path: path, schemaVersion: configuration.schemaVersion, migration: configuration.migration,
                deleteIfMigrationNeeded: configuration.deleteIfMigrationNeeded,
                shouldCompactOnLaunch: configuration.shouldCompactOnLaunch,
                durability: configuration.durability, autoCompaction: configuration.autoCompaction,
                readOnly: configuration.readOnly, cacheBudget: configuration.pageCacheBudget,
                fileSystem: configuration.fileSystem)
            let (file, snapshot) = try StoreFile.open(options, codeSchemas: codeSchemas)
            let core = StoreCore(state: snapshot, file: file)
            StoreRegistry.register(core, for: key)
            return core
        }
    }
}
