/// Errors the store raises.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The model's shape cannot be stored; raised when its schema is derived (at registration
    /// or first use), never as a crash at first write.
    case unsupportedModel(type: String, reason: String)
    /// `add(_:update: .error)` met an object whose primary key is already stored.
    case duplicatePrimaryKey(type: String, key: String)
    /// ``Transaction/update(_:forPrimaryKey:_:)`` found no object with this primary key.
    case objectNotFound(type: String, key: String)
    /// The closure given to ``Transaction/update(_:forPrimaryKey:_:)`` changed the object's
    /// primary key (from `key` to `newKey`); delete the object and add a new one instead.
    case primaryKeyChanged(type: String, key: String, newKey: String)
    /// `write` was called inside another `write` on the same thread.
    case nestedWrite
    /// A ``Transaction`` was used after its `write` block returned.
    case transactionClosed
    /// The store file is damaged at `offset` (bytes from its start). The open failed and left
    /// the file as it was; nothing was thrown away.
    case corrupted(offset: Int, reason: String)
    /// The file at `path` is not a store file (its first bytes are not the store's header).
    case notAStoreFile(path: String)
    /// The file was written with a higher `schemaVersion` than the code's (an older build
    /// opening a newer file).
    case schemaVersionTooNew(stored: UInt64, code: UInt64)
    /// A model's fields differ from the stored objects of that type but `schemaVersion` was
    /// not raised; raise it (and pass a migration) or set `deleteIfMigrationNeeded`.
    case migrationRequired(type: String, reason: String)
    /// The migration left the data in a state the new models cannot hold (for example two
    /// objects with the same primary key, or a required field without a value).
    case migrationFailed(reason: String)
    /// Another process has the store file open (the store holds an exclusive lock on it).
    case fileLocked(path: String)
    /// The operating system refused an operation on the store file.
    case io(path: String, reason: String)
    /// The volume holding the store file is full (`ENOSPC`, or `EDQUOT` for a user's quota):
    /// `operation` ("write", "fsync", …) could not be done. Nothing of the failed write is
    /// kept, every commit acknowledged before it is still read, and once space is freed the
    /// same store writes again; an app shows "storage full" rather than "the file is broken".
    case diskFull(path: String, operation: String)
    /// A write (or compaction) was asked of a store opened with
    /// ``Store/Configuration/readOnly``; the file is never changed.
    case readOnly(path: String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .unsupportedModel(let type, let reason): return "\(type) cannot be stored: \(reason)"
        case .duplicatePrimaryKey(let type, let key): return "\(type) with primary key \(key) already exists"
        case .objectNotFound(let type, let key): return "no \(type) with primary key \(key)"
        case .primaryKeyChanged(let type, let key, let newKey):
            return "the primary key of \(type) \(key) cannot change (to \(newKey)); delete it and add a new one"
        case .nestedWrite: return "write() called inside a write transaction"
        case .transactionClosed: return "the transaction was used after its write block ended"
        case .corrupted(let offset, let reason): return "the store file is corrupted at byte \(offset): \(reason)"
        case .notAStoreFile(let path): return "\(path) is not a store file"
        case .schemaVersionTooNew(let stored, let code):
            return "the store file has schema version \(stored), newer than the code's \(code)"
        case .migrationRequired(let type, let reason):
            return "migration required for \(type) (raise schemaVersion): \(reason)"
        case .migrationFailed(let reason): return "the migration failed: \(reason)"
        case .fileLocked(let path): return "\(path) is open in another process"
        case .io(let path, let reason): return "\(path): \(reason)"
        case .diskFull(let path, let operation): return "\(path): no space left on the device (\(operation) failed)"
        case .readOnly(let path): return "\(path) is open read-only: it cannot be written"
        }
    }
}
