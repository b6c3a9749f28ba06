import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a file store was asked to do (the file-specific part of ``Store/Configuration``).
struct FileOptions {
    var path: String
    var schemaVersion: UInt64
    var migration: ((Migration, UInt64) throws -> Void)?
    var deleteIfMigrationNeeded: Bool
    var shouldCompactOnLaunch: ((Int, Int) -> Bool)?
    var durability: Store.Durability
    var autoCompaction: Store.AutoCompaction
    /// Open without ever changing the file (see ``Store/Configuration/readOnly``).
    var readOnly = false
    /// The page cache's budget (see `PagedFile.cacheBudget`).
    var cacheBudget = PagedFile.defaultCacheBudget
    /// Where the write paths' file operations go (``POSIXFileSystem`` unless a test puts a
    /// simulated disk in its place).
    var fileSystem: any FileSystem = POSIXFileSystem()
}

/// An open store file: the descriptor (holding an exclusive `flock`), where the next record
/// goes, and the write path. Every method is called with the store's write lock held.
final class StoreFile: @unchecked Sendable {
    let path: String
    private(set) var fd: Int32
    /// The end of the last whole record: where the next commit is written.
    private(set) var size: Int
    let durability: Store.Durability
    let schemaVersion: UInt64
    let autoCompaction: Store.AutoCompaction
    /// Opened read-only: nothing is ever written to the file.
    let readOnly: Bool
    /// What the open dropped from the end of the file (an unfinished commit), if anything.
    private(set) var recovery: Store.RecoveryReport?
    /// The file's size right after the last compaction (or the snapshot part when opened).
    private(set) var compactedSize: Int
    /// Tables whose definition the file already holds.
    private var persisted: Set<String>
    /// The first damage found in the file's pages after it was opened; shared with its pages.
    let damage = DamageReport()
    /// Set when a failed append could not be undone: later writes throw instead of risking
    /// a file whose log continues after garbage.
    private var failure: String?
    /// After an automatic compaction failed: the memory held that must be passed before the
    /// next try (0 otherwise).
    private var heldFloor = 0
    /// The file operations of every write path (see ``FileSystem``).
    let fileSystem: any FileSystem
    /// How an append's bytes reach the file: `StoreFile.writeAll` through `fileSystem`, unless
    /// a test puts a failing disk in its place.
    var writeAppended: (_ fd: Int32, _ bytes: [UInt8], _ offset: Int, _ path: String) throws -> Void
    /// Set when the directory could not be synced after this file was created or renamed into
    /// place: the file's bytes are on the disk, but a power cut could still bring back the
    /// directory as it was (no file, or the file before a compaction or migration). Losing
    /// that rename alone loses no commit; losing it after a later commit would, so the next
    /// commit under `.full` syncs the directory first and fails, writing nothing, if it still
    /// cannot.
    private var directoryUnsynced = false
    /// How the directory is synced after a rename: `StoreFile.syncDirectory` through
    /// `fileSystem`, unless a test puts a failing one in its place.
    var syncsDirectory: (_ path: String) throws -> Void

    private init(path: String, fd: Int32, size: Int, options: FileOptions, compactedSize: Int, persisted: Set<String>) {
        self.path = path
        self.fd = fd
        self.size = size
        self.durability = options.durability
        self.schemaVersion = options.schemaVersion
        self.autoCompaction = options.autoCompaction
        self.readOnly = options.readOnly
        self.compactedSize = compactedSize
        self.persisted = persisted
        let fileSystem = options.fileSystem
        self.fileSystem = fileSystem
        self.writeAppended = { try StoreFile.writeAll($0, $1, at: $2, path: $3, in: fileSystem) }
        self.syncsDirectory = { try StoreFile.syncDirectory(of: $0, in: fileSystem) }
    }

    deinit {
        if durability == .relaxed, !readOnly { _ = StoreFile.sync(fd, in: fileSystem) }
        if directoryUnsynced { try? syncsDirectory(path) }   // a last try; nobody to tell
        fileSystem.close(fd)
    }

    // MARK: Opening

    /// Opens (or creates) the file, locks it, reads it, migrates or compacts it when asked.
    ///
    /// - Returns: The open file and the committed state it holds.
    /// - Throws: A ``StoreError``; on failure the file is as it was (except when a migration
    ///   or `deleteIfMigrationNeeded` had to replace it, which happens atomically).
    static func open(_ options: FileOptions, codeSchemas: [String: ObjectSchema]) throws -> (StoreFile, Snapshot) {
        let path = options.path
        let fileSystem = options.fileSystem
        var createdUnsynced = false
        for _ in 0..<16 {
            let fd = StoreFile.open(path, (options.readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC, in: fileSystem)
            if fd < 0 {
                let code = errno
                if code == ENOENT, options.readOnly {
                    throw StoreError.io(path: path, reason: "open failed: no such file (a read-only store does not create its file)")
                }
                if code == ENOENT {
                    createdUnsynced = try !create(path: path, schemaVersion: options.schemaVersion, in: fileSystem)
                    continue
                }
                throw StoreError.io(path: path, reason: "open failed: \(String(cString: strerror(code)))")
            }
            // Read-only opens share the file with each other; a writer has it alone.
            if flock(fd, (options.readOnly ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
                let code = errno
                fileSystem.close(fd)
                if code == EWOULDBLOCK { throw StoreError.fileLocked(path: path) }
                throw StoreError.io(path: path, reason: "flock failed: \(String(cString: strerror(code)))")
            }
            // A compaction in another process may have renamed a new file into place between
            // our open and our lock: then we hold the lock of an unlinked file; start over.
            var opened = stat(), current = stat()
            if fstat(fd, &opened) != 0 || stat(path, &current) != 0 || opened.st_ino != current.st_ino || opened.st_dev != current.st_dev {
                fileSystem.close(fd)
                continue
            }
            if (opened.st_mode & S_IFMT) != S_IFREG {
                fileSystem.close(fd)
                throw StoreError.io(path: path, reason: "not a regular file")
            }
            return try load(fd: fd, options: options, codeSchemas: codeSchemas, directoryUnsynced: createdUnsynced)
        }
        throw StoreError.io(path: path, reason: "the file kept being replaced while it was opened")
    }

    /// Creates an empty store file atomically: written to a temporary file, synced, then
    /// linked into place (never over an existing file).
    ///
    /// - Returns: Whether the directory was synced after the link. When it was not, the file
    ///   is used all the same (it holds no commit yet) and its first commit under `.full`
    ///   syncs the directory again (see `directoryUnsynced`).
    private static func create(path: String, schemaVersion: UInt64, in fileSystem: any FileSystem) throws -> Bool {
        let temp = path + ".new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600, in: fileSystem)
        guard fd >= 0 else { throw ioError(path, "create") }
        defer { fileSystem.close(fd); fileSystem.unlink(temp) }
        _ = fchmod(fd, 0o600)
        try writeAll(fd, FileFormat.emptyStore(schemaVersion: schemaVersion), at: 0, path: path, in: fileSystem)
        guard sync(fd, in: fileSystem) else { throw ioError(path, "fsync") }
        if !fileSystem.link(temp, to: path) {
            let code = errno
            if code == EEXIST { return true }   // another opener created it first: theirs to sync
            if !fileSystem.rename(temp, to: path) { throw ioError(path, "rename") }
        }
        return (try? syncDirectory(of: path, in: fileSystem)) != nil
    }

    /// Reads and prepares the locked file; owns `fd` (closed by the returned file, or on error).
    private static func load(fd: Int32, options: FileOptions, codeSchemas: [String: ObjectSchema],
                             directoryUnsynced: Bool) throws -> (StoreFile, Snapshot) {
        let path = options.path
        // From here on `file` owns the descriptor: any error closes it (releasing the lock).
        let file = StoreFile(path: path, fd: fd, size: 0, options: options, compactedSize: 0, persisted: [])
        file.directoryUnsynced = directoryUnsynced
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError(path, "stat") }
        var fileSize = Int(info.st_size)
        if fileSize == 0, options.readOnly { throw StoreError.notAStoreFile(path: path) }
        if fileSize == 0 {
            // An empty file (created by someone else): make it a store.
            let bytes = FileFormat.emptyStore(schemaVersion: options.schemaVersion)
            try writeAll(fd, bytes, at: 0, path: path, in: options.fileSystem)
            guard sync(fd, in: options.fileSystem) else { throw ioError(path, "fsync") }
            fileSize = bytes.count
        }
        var contents: FileFormat.Contents
        if try isPaged(fd, size: fileSize, path: path) {
            // Format 3: the pages stay in the file, read through a descriptor of their own.
            let own = dup(fd)
            guard own >= 0 else { throw ioError(path, "dup") }
            let paged = PagedFile(path: path, source: .descriptor(own), damage: file.damage, cacheBudget: options.cacheBudget)
            contents = try FileFormat.readPaged(paged, size: fileSize, codeSchemas: codeSchemas)
        } else {
            let bytes = try readAll(fd, path: path)
            fileSize = bytes.count
            contents = try bytes.withUnsafeBytes { try FileFormat.read($0, path: path, codeSchemas: codeSchemas) }
        }
        if contents.schemaVersion > options.schemaVersion {
            throw StoreError.schemaVersionTooNew(stored: contents.schemaVersion, code: options.schemaVersion)
        }
        file.size = contents.validEnd
        file.compactedSize = contents.snapshotEnd
        file.persisted = Set(contents.tables.keys)
        if contents.validEnd < fileSize {
            file.recovery = Store.RecoveryReport(
                path: path, droppedBytes: fileSize - contents.validEnd, offset: contents.validEnd,
                droppedVersion: contents.version + 1, truncated: !options.readOnly)
        }
        let needsMigration = contents.schemaVersion < options.schemaVersion || !contents.mismatched.isEmpty
        if options.readOnly {
            // Never a change to the file: no migration, no rewrite, no truncation, no compaction.
            if needsMigration {
                let reason = contents.mismatched.first.map {
                    "the file stores (\($0.stored.layoutDescription)), the model has (\($0.code.layoutDescription)); a read-only store cannot migrate"
                } ?? "schema version \(contents.schemaVersion) is older than the code's \(options.schemaVersion); a read-only store cannot migrate"
                throw StoreError.migrationRequired(type: contents.mismatched.first?.code.name ?? "the store", reason: reason)
            }
        } else if needsMigration {
            if options.deleteIfMigrationNeeded {
                contents.tables = [:]
            } else if contents.schemaVersion == options.schemaVersion, let first = contents.mismatched.first {
                throw StoreError.migrationRequired(
                    type: first.code.name,
                    reason: "the file stores (\(first.stored.layoutDescription)), the model has (\(first.code.layoutDescription))")
            } else {
                contents.tables = try Migration.run(tables: contents.tables, codeSchemas: codeSchemas,
                                                    oldSchemaVersion: contents.schemaVersion, block: options.migration)
            }
            // Write the migrated (or emptied) data as a fresh file and rename it into place.
            contents.tables = try file.replace(with: contents.tables, version: contents.version)
        } else if contents.format < 3 {
            // A file of format 1 or 2: rewritten in this one (a compaction), so that from now
            // on a torn commit can always be told from a damaged snapshot. (A format 3 file is
            // read in place: only its indexes are not stored; its next compaction writes them.)
            contents.tables = try file.replace(with: contents.tables, version: contents.version)
        } else if contents.validEnd < fileSize {
            // Drop the torn tail (a record the last run did not finish writing).
            guard truncate(fd, to: contents.validEnd, in: options.fileSystem), sync(fd, in: options.fileSystem) else {
                throw ioError(path, "truncating the torn tail")
            }
        }
        if let should = options.shouldCompactOnLaunch, !options.readOnly {
            // A file of this format with no commit after its snapshot is what a compaction would
            // write (the same pages, byte for byte): its size is the answer, without reading a row.
            let used = contents.format == FileFormat.formatVersion && contents.commits == 0 && file.size == contents.snapshotEnd && !needsMigration
                ? file.size
                : try StoreFile.encodedSize(contents.tables, schemaVersion: options.schemaVersion, version: contents.version)
            if should(file.size, used) { contents.tables = try file.replace(with: contents.tables, version: contents.version) }
        }
        var tables = contents.tables
        for name in tables.keys { tables[name]!.seal() }
        return (file, Snapshot(version: contents.version, tables: tables))
    }

    /// Whether the file's header says a paged format (3 or later); a file too short or not a store
    /// file is left to the whole-file reader, which says what is wrong with it.
    private static func isPaged(_ fd: Int32, size: Int, path: String) throws -> Bool {
        guard size >= FileFormat.headerSize else { return false }
        var header = [UInt8](repeating: 0, count: FileFormat.headerSize)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, FileFormat.headerSize, 0) }
        guard n == FileFormat.headerSize else { return false }
        guard header.prefix(8).elementsEqual(FileFormat.magic) else { return false }
        let format = UInt32(header[8]) | UInt32(header[9]) << 8 | UInt32(header[10]) << 16 | UInt32(header[11]) << 24
        return format >= 3
    }

    // MARK: Writing

    /// Appends one commit as one record (one `write`), then syncs it under `.full`. On failure
    /// the file is truncated back, so it ends with the previous commit, and the error is thrown.
    /// Under `.full`, a directory left unsynced by a creation or compaction is synced first; if
    /// it still cannot be, the error is thrown before anything is written.
    func append(_ log: [ChangeRecord], tables: [String: TableState], touched: Dictionary<String, TableChanges>.Keys) throws {
        try recoverFromEarlierFailure()
        var newTables: [ObjectSchema] = []
        for name in touched where !persisted.contains(name) {
            if let table = tables[name] { newTables.append(table.schema) }
        }
        let record: [UInt8]
        do {
            record = try FileFormat.commitRecord(log, newTables: newTables)
        } catch let error as FileFormatError {
            throw StoreError.io(path: path, reason: error.reason)
        }
        if durability == .full, directoryUnsynced {
            try syncsDirectory(path)
            directoryUnsynced = false
        }
        let start = size
        do {
            try writeAppended(fd, record, start, path)
            if durability == .full, !StoreFile.sync(fd, in: fileSystem) { throw StoreFile.ioError(path, "fsync") }
        } catch {
            if !StoreFile.truncate(fd, to: start, in: fileSystem) || !StoreFile.sync(fd, in: fileSystem) {
                failure = "\(error)"
            }
            throw error
        }
        size = start + record.count
        for schema in newTables { persisted.insert(schema.name) }
    }

    /// After a failed append that could not be undone (its `ftruncate` or the sync after it
    /// failed too, say on a full disk), tries the undo again: the file cut back to the end of the
    /// last acknowledged commit and synced. When that works the store writes again, with no
    /// reopening; when it does not, the write is refused with the first failure and the undo's.
    private func recoverFromEarlierFailure() throws {
        guard let earlier = failure else { return }
        guard StoreFile.truncate(fd, to: size, in: fileSystem), StoreFile.sync(fd, in: fileSystem) else {
            let now = StoreFile.ioError(path, "truncating back the failed write")
            if case .diskFull = now { throw now }
            throw StoreError.io(path: path, reason: "the store cannot write until the failed write is undone (\(earlier); \(now))")
        }
        failure = nil
    }

    /// Rewrites the file as a snapshot of `snapshot` (crash-safe: temp file, sync, rename).
    ///
    /// - Returns: The same commit, read from the new file: its tables hold no change in memory.
    func compact(_ snapshot: Snapshot) throws -> Snapshot {
        try recoverFromEarlierFailure()
        return Snapshot(version: snapshot.version, tables: try replace(with: snapshot.tables, version: snapshot.version))
    }

    /// Compacts when the file has grown past the configured multiple of its compacted size, or
    /// the changes kept in memory since the last compaction past the configured bytes.
    ///
    /// - Returns: The snapshot read from the new file, when it compacted.
    func compactIfDue(_ snapshot: Snapshot) -> Snapshot? {
        guard autoCompaction.logMultiple > 0, failure == nil else { return nil }
        let limit = max(autoCompaction.minimumBytes, compactedSize.multipliedReportingOverflow(by: autoCompaction.logMultiple).partialValue)
        let held = snapshot.tables.values.reduce(0) { $0 + $1.heldBytes }
        guard size > limit || held > max(autoCompaction.heldBytes, heldFloor) else { return nil }
        do {
            let compacted = try compact(snapshot)
            heldFloor = 0
            return compacted
        } catch {
            // The commit is safe in the log; try again only after the log (or what memory
            // holds) grows as much again, rather than rewriting the whole store at every
            // commit while the disk is full.
            compactedSize = size
            heldFloor = held.multipliedReportingOverflow(by: 2).partialValue
            return nil
        }
    }

    /// Writes `tables` to `<path>.compact`, syncs it, locks it and renames it over the file.
    /// The store moves to the new file even when the directory cannot be synced after the
    /// rename (the old file is gone from the path either way); then `directoryUnsynced` holds
    /// the next commit back until the directory is synced.
    ///
    /// - Returns: The tables read from the new file (the pages just written), or `tables`
    ///   when the new file cannot be given a reading descriptor.
    @discardableResult
    private func replace(with tables: [String: TableState], version: Int) throws -> [String: TableState] {
        let temp = path + ".compact"
        let newFD = StoreFile.open(temp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600, in: fileSystem)
        guard newFD >= 0 else { throw StoreFile.ioError(temp, "create") }
        var offset = 0
        var layout: [String: FileFormat.TableLayout] = [:]
        do {
            _ = fchmod(newFD, 0o600)
            guard flock(newFD, LOCK_EX | LOCK_NB) == 0 else { throw StoreFile.ioError(temp, "flock") }
            let header = FileFormat.fileHeader()
            try StoreFile.writeAll(newFD, header, at: 0, path: temp, in: fileSystem)
            offset = header.count
            let written = try FileFormat.writePagedSnapshot(tables, schemaVersion: schemaVersion, version: version) { chunk in
                try StoreFile.writeAll(newFD, chunk, at: offset, path: temp, in: fileSystem)
                offset += chunk.count
            }
            layout = written.layout
            try StoreFile.writeAll(newFD, written.meta, at: FileFormat.headerSize, path: temp, in: fileSystem)
            guard StoreFile.sync(newFD, in: fileSystem) else { throw StoreFile.ioError(temp, "fsync") }
            guard fileSystem.rename(temp, to: path) else { throw StoreFile.ioError(path, "rename") }
        } catch {
            fileSystem.close(newFD)
            fileSystem.unlink(temp)
            if let error = error as? FileFormatError { throw StoreError.io(path: path, reason: error.reason) }
            throw error
        }
        do {
            try syncsDirectory(path)
            directoryUnsynced = false
        } catch {
            directoryUnsynced = true
        }
        if fd >= 0 { fileSystem.close(fd) }
        fd = newFD
        size = offset
        compactedSize = offset
        persisted = Set(tables.keys)
        return reading(layout) ?? tables
    }

    /// Tables over the pages of the snapshot just written, read through a descriptor of their
    /// own (`nil` when none can be had: the caller keeps the tables it has).
    private func reading(_ layout: [String: FileFormat.TableLayout]) -> [String: TableState]? {
        let own = dup(fd)
        guard own >= 0 else { return nil }
        let pages = PagedFile(path: path, source: .descriptor(own), damage: damage)
        var tables: [String: TableState] = [:]
        for (name, table) in layout {
            let base = PagedTable(file: pages, storedSchema: table.schema, count: table.count,
                                  rowPages: table.rowPages, keyPages: table.keyPages, firstKeys: table.firstKeys,
                                  storedIndexes: table.storedIndexes, fieldLaid: table.fieldLaid)
            // Pages written from checked rows need no second check before a listing or count.
            if table.pagesChecked { base.markChecked() }
            var state = TableState(schema: table.schema, base: base)
            state.seal()
            tables[name] = state
        }
        return tables
    }

    static func encodedSize(_ tables: [String: TableState], schemaVersion: UInt64, version: Int) throws -> Int {
        var total = FileFormat.headerSize
        do {
            _ = try FileFormat.writePagedSnapshot(tables, schemaVersion: schemaVersion, version: version) { total += $0.count }
        } catch let error as FileFormatError {
            throw StoreError.io(path: "", reason: error.reason)
        }
        return total
    }
}
