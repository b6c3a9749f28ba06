import Foundation

/// The store file's layout: a 16-byte file header, then framed records (see
/// `Guides/ObjectStore-FileFormat.md`, which this code and that guide must agree with).
///
///     file   := header meta table* seal commit*        (format 1, still read: no seal)
///     header := "RMVSTORE" u32(formatVersion) u32(crc32c of the 12 bytes before)
///     record := u32(length) u32(crc32c of payload) u32(crc32c of the 8 bytes before) payload
///     payload:= u8(kind) body
/// Whether reading a store file checks record checksums. Only the fuzz target turns this off,
/// so that it reaches the record decoders with inputs a checksum would reject.
package nonisolated(unsafe) var _storeFileVerifiesChecksums = true

enum FileFormat {
    static let magic: [UInt8] = Array("RMVSTORE".utf8)
    /// The format this library writes: 3, a snapshot of pages read in place. Formats 1 (no
    /// `seal` record) and 2 (a snapshot read whole) are still read, and a store file in them is
    /// rewritten in this format when it is opened.
    static let formatVersion: UInt32 = 3
    /// The oldest format this library reads.
    static let oldestReadableFormat: UInt32 = 1
    static let headerSize = 16
    static let recordHeaderSize = 12
    static let maxRecordLength = 1 << 30
    /// Snapshot records are cut at about this size so no single record grows without bound.
    static let chunkSize = 1 << 22

    enum Kind: UInt8 {
        /// The store's metadata: schema version and the commit version of the snapshot.
        case meta = 1
        /// Part of a snapshot: a table definition and some of its rows.
        case table = 2
        /// One committed write transaction.
        case commit = 3
        /// The end of the snapshot (format 2): how many `table` records came before it. Only
        /// records after it can be torn by a crash; damage before it is corruption.
        case seal = 4
        /// The last record of a format 3 snapshot: each table's definition and pages.
        case directory = 5
        /// Format 3: up to `PagedTable.rowsPerPage` rows of a table, with their offsets.
        case rowPage = 6
        /// Format 3: up to `PagedTable.keysPerPage` primary keys of a table, sorted, with slots.
        case keyPage = 7
    }

    enum Change: UInt8 { case insert = 0, update = 1, delete = 2 }

    static func fileHeader(format: UInt32 = formatVersion) -> [UInt8] {
        var w = ByteWriter()
        w.bytes = magic
        w.u32(format)
        w.u32(w.bytes.withUnsafeBytes { CRC32C.checksum($0) })
        return w.bytes
    }

    // MARK: Writing records

    /// Starts a record: reserves its header and writes the kind byte.
    static func begin(_ kind: Kind, into w: inout ByteWriter) -> Int {
        let start = w.bytes.count
        w.bytes.append(contentsOf: repeatElement(0, count: recordHeaderSize))
        w.u8(kind.rawValue)
        return start
    }

    /// Fills in the header of the record that `begin` started at `start`.
    ///
    /// - Throws: `FileFormatError` when the record is longer than a reader accepts.
    static func finish(_ w: inout ByteWriter, start: Int) throws {
        let payloadStart = start + recordHeaderSize
        let length = w.bytes.count - payloadStart
        guard length <= maxRecordLength else {
            throw FileFormatError("a record of \(length) bytes exceeds the limit of \(maxRecordLength) (split the transaction)")
        }
        let payloadCRC = CRC32C.checksum(w.bytes[payloadStart...])
        w.patchU32(UInt32(length), at: start)
        w.patchU32(payloadCRC, at: start + 4)
        w.patchU32(CRC32C.checksum(w.bytes[start..<start + 8]), at: start + 8)
    }

    static func metaRecord(schemaVersion: UInt64, version: Int, into w: inout ByteWriter) {
        let start = begin(.meta, into: &w)
        w.u64(schemaVersion)
        w.count(version)
        try! finish(&w, start: start)   // a few bytes
    }

    static func writeDefinition(_ schema: ObjectSchema, into w: inout ByteWriter) {
        w.string(schema.name)
        w.count(schema.primaryKeyIndex)
        w.count(schema.fields.count)
        for (field, kind) in zip(schema.fields, schema.kindNames) {
            w.string(field.name)
            w.string(kind)
            w.u8((field.isOptional ? 1 : 0) | (field.isIndexed ? 2 : 0))
        }
    }

    /// The records of a whole format 2 snapshot (meta, then each table in chunks), handed to
    /// `emit` about `chunkSize` bytes at a time. The store writes format 3 (`writePagedSnapshot`);
    /// this stays so tests can make the files an older release wrote, which must keep opening.
    static func writeFormat2Snapshot(_ tables: [String: TableState], schemaVersion: UInt64, version: Int, emit: ([UInt8]) throws -> Void) throws {
        var w = ByteWriter()
        metaRecord(schemaVersion: schemaVersion, version: version, into: &w)
        var tableRecords = 0
        for name in tables.keys.sorted() {
            let table = tables[name]!
            var all: [Row] = []
            table.forEachRow { _, row in all.append(row) }
            var rows = all.makeIterator()
            var next = rows.next()
            repeat {
                var body = ByteWriter()
                var count = 0
                while let row = next, body.bytes.count < chunkSize {
                    body.row(row)
                    count += 1
                    next = rows.next()
                }
                let start = begin(.table, into: &w)
                writeDefinition(table.schema, into: &w)
                w.count(count)
                w.bytes.append(contentsOf: body.bytes)
                try finish(&w, start: start)
                tableRecords += 1
                try emit(w.bytes)
                w.bytes.removeAll(keepingCapacity: true)
            } while next != nil
        }
        sealRecord(tableRecords: tableRecords, into: &w)
        try emit(w.bytes)
    }

    /// The record that ends a snapshot: written last, so a snapshot that has it is whole.
    static func sealRecord(tableRecords: Int, into w: inout ByteWriter) {
        let start = begin(.seal, into: &w)
        w.count(tableRecords)
        try! finish(&w, start: start)   // a few bytes
    }

    /// The whole file of a new, empty store: header, meta and an empty directory.
    static func emptyStore(schemaVersion: UInt64) -> [UInt8] {
        var bytes = fileHeader()
        let meta = try! writePagedSnapshot([:], schemaVersion: schemaVersion, version: 0) { bytes += $0 }   // a few bytes
        bytes.replaceSubrange(headerSize..<headerSize + meta.count, with: meta)
        return bytes
    }

    /// One commit: the definitions of tables the file does not know yet, then the changes.
    static func commitRecord(_ log: [ChangeRecord], newTables: [ObjectSchema]) throws -> [UInt8] {
        var w = ByteWriter()
        w.bytes.reserveCapacity(64 + log.count * 48)
        let start = begin(.commit, into: &w)
        w.count(newTables.count)
        for schema in newTables { writeDefinition(schema, into: &w) }
        w.count(log.count)
        for change in log {
            switch change {
            case .insert(let table, let row):
                w.u8(Change.insert.rawValue)
                w.string(table)
                w.row(row)
            case .update(let table, let key, let fields, let values):
                w.u8(Change.update.rawValue)
                w.string(table)
                w.value(key)
                w.count(fields.count)
                for (field, value) in zip(fields, values) {
                    w.count(field)
                    w.value(value)
                }
            case .delete(let table, let key):
                w.u8(Change.delete.rawValue)
                w.string(table)
                w.value(key)
            }
        }
        try finish(&w, start: start)
        return w.bytes
    }

    // MARK: Reading

    /// What a successful read of a store file found.
    struct Contents {
        /// The format the file was written in (older formats are rewritten at open).
        var format: UInt32 = formatVersion
        var schemaVersion: UInt64 = 0
        /// The commit version after the last commit read.
        var version = 0
        var tables: [String: TableState] = [:]
        /// The end of the last whole record; bytes after it are a torn tail to drop.
        var validEnd = 0
        /// The end of the snapshot part (meta, table and seal records), where the log starts.
        var snapshotEnd = 0
        var commits = 0
        /// Tables whose stored layout differs from the code's model of the same name.
        var mismatched: [(stored: ObjectSchema, code: ObjectSchema)] = []
    }

    /// Reads a whole store file.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes (at least the header).
    ///   - path: For error messages.
    ///   - codeSchemas: The models the code knows, by name: tables with the same layout use them.
    /// - Throws: ``StoreError/notAStoreFile(path:)`` or ``StoreError/corrupted(offset:reason:)``.
    static func read(_ bytes: UnsafeRawBufferPointer, path: String, codeSchemas: [String: ObjectSchema]) throws -> Contents {
        let size = bytes.count
        guard size >= headerSize, bytes.prefix(8).elementsEqual(magic) else { throw StoreError.notAStoreFile(path: path) }
        let format = try checkHeader(bytes)
        if format >= 3 {
            let file = PagedFile(path: path, source: .bytes(Array(bytes)), damage: DamageReport())
            return try readPaged(file, size: size, codeSchemas: codeSchemas)
        }
        var contents = Contents()
        contents.format = format
        var loader = Loader(codeSchemas: codeSchemas)
        try readRecords(bytes, origin: 0, from: headerSize, format: format, afterSnapshot: false, contents: &contents, loader: &loader)
        contents.tables = loader.finish()
        contents.mismatched = loader.mismatched
        return contents
    }

    /// Checks the 16-byte file header (its magic must already match) and returns the format.
    static func checkHeader(_ bytes: UnsafeRawBufferPointer) throws -> UInt32 {
        var header = ByteReader(bytes, from: 8, to: headerSize)
        let format = try! header.u32()
        let headerCRC = try! header.u32()
        guard !_storeFileVerifiesChecksums || headerCRC == CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<12])) else {
            throw StoreError.corrupted(offset: 0, reason: "the file header's checksum does not match")
        }
        guard format >= oldestReadableFormat && format <= formatVersion else {
            throw StoreError.corrupted(offset: 8, reason: "file format \(format) is not supported (this library reads formats \(oldestReadableFormat)–\(formatVersion))")
        }
        return format
    }

    /// Reads records from `start` to the end of `bytes`, which begin at file offset `origin`:
    /// the whole file after its header (formats 1 and 2), or the log after a format 3 snapshot
    /// (`afterSnapshot`). Fills in `contents`' version, ends and commit count.
    static func readRecords(_ bytes: UnsafeRawBufferPointer, origin: Int, from start: Int, format: UInt32, afterSnapshot: Bool,
                            contents: inout Contents, loader: inout Loader) throws {
        let size = bytes.count
        var offset = start
        var sawMeta = afterSnapshot
        var sealed = afterSnapshot
        var tableRecords = 0
        var sawCommit = false
        /// Whether a record at `offset` that is not whole may be a commit torn by a crash (and so
        /// be dropped). Only appended commits can be torn: a snapshot is written to a temporary
        /// file and renamed into place whole. In format 2 the seal marks where the log starts;
        /// a format 1 file has no seal, so the record's kind byte (when it is there) decides.
        func mayBeTorn(kind: UInt8?) -> Bool {
            if format >= 2 { return sealed }
            if sawCommit { return true }
            if let kind { return kind == Kind.commit.rawValue }
            return tableRecords == 0
        }
        func snapshotDamage(_ what: String) -> StoreError {
            .corrupted(offset: origin + offset, reason: "\(what) inside the snapshot (only a commit after it can be torn by a crash)")
        }
        while offset < size {
            let remaining = size - offset
            if remaining < recordHeaderSize {   // a torn record header
                if mayBeTorn(kind: nil) { break }
                throw snapshotDamage("a record header cut short")
            }
            var r = ByteReader(bytes, from: offset, to: offset + recordHeaderSize)
            let length = Int(try! r.u32())
            let payloadCRC = try! r.u32()
            let check = try! r.u32()
            if _storeFileVerifiesChecksums, check != CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8])) {
                if bytes[offset...].allSatisfy({ $0 == 0 }) {   // zero-filled tail
                    if mayBeTorn(kind: nil) { break }
                    throw snapshotDamage("zeros")
                }
                throw StoreError.corrupted(offset: origin + offset, reason: "a record header's checksum does not match")
            }
            guard length >= 1, length <= maxRecordLength else {
                throw StoreError.corrupted(offset: origin + offset, reason: "a record has an impossible length \(length)")
            }
            let end = offset + recordHeaderSize + length
            let kindByte = remaining > recordHeaderSize ? bytes[offset + recordHeaderSize] : nil
            if end > size {   // the last record was cut short
                if mayBeTorn(kind: kindByte) { break }
                throw snapshotDamage("a record cut short")
            }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + recordHeaderSize)..<end])
            if _storeFileVerifiesChecksums, CRC32C.checksum(payload) != payloadCRC {
                if end == size {   // the last record was not completely written
                    if mayBeTorn(kind: kindByte) { break }
                    throw snapshotDamage("a record whose checksum does not match")
                }
                throw StoreError.corrupted(offset: origin + offset, reason: "a record's checksum does not match")
            }
            do {
                var p = ByteReader(bytes, from: offset + recordHeaderSize, to: end)
                let kindByte = try p.u8()
                guard let kind = Kind(rawValue: kindByte), format >= 2 || kind != .seal else {
                    throw FileFormatError("unknown record kind \(kindByte)")
                }
                switch kind {
                case .meta:
                    guard !sawMeta else { throw FileFormatError("a second meta record") }
                    sawMeta = true
                    contents.schemaVersion = try p.u64()
                    let version = try p.varint()
                    guard version < UInt64(Int.max / 2) else { throw FileFormatError("impossible version \(version)") }
                    contents.version = Int(version)
                case .table:
                    guard sawMeta, !sealed, !sawCommit else { throw FileFormatError("a snapshot record after the log started") }
                    try loader.readTable(&p)
                    tableRecords += 1
                case .seal:
                    guard sawMeta, !sealed else { throw FileFormatError(sawMeta ? "a second seal record" : "a seal before the meta record") }
                    let count = try p.varint()
                    guard count == UInt64(tableRecords) else {
                        throw FileFormatError("the snapshot has \(tableRecords) table records, its seal says \(count)")
                    }
                    sealed = true
                    contents.snapshotEnd = origin + end
                case .commit:
                    guard sawMeta else { throw FileFormatError("a commit before the meta record") }
                    guard format < 2 || sealed else { throw FileFormatError("a commit before the snapshot's seal") }
                    if !sawCommit && format < 2 { contents.snapshotEnd = origin + offset }
                    sawCommit = true
                    try loader.readCommit(&p)
                    contents.commits += 1
                case .directory, .rowPage, .keyPage:
                    throw FileFormatError(format >= 3 ? "a snapshot page in the log" : "unknown record kind \(kindByte)")
                }
                guard p.isAtEnd else { throw FileFormatError("\(end - p.position) unexpected bytes at the end of a record") }
            } catch let error as FileFormatError {
                throw StoreError.corrupted(offset: origin + offset, reason: error.reason)
            }
            offset = end
        }
        guard sawMeta else {
            throw StoreError.corrupted(offset: origin + headerSize, reason: "the file has no complete meta record")
        }
        if format >= 2 && !sealed {
            throw StoreError.corrupted(offset: origin + offset, reason: "the snapshot ends without its seal record (the file is cut short)")
        }
        if format < 2 && !sawCommit { contents.snapshotEnd = origin + offset }
        contents.validEnd = origin + offset
        contents.version += contents.commits
    }

    /// Rebuilds tables from snapshot and commit records.
    struct Loader {
        let codeSchemas: [String: ObjectSchema]
        var tables: [String: TableState] = [:]
        var checks: [String: [ValueCheck]] = [:]
        var mismatched: [(stored: ObjectSchema, code: ObjectSchema)] = []

        init(codeSchemas: [String: ObjectSchema]) { self.codeSchemas = codeSchemas }

        mutating func readDefinition(_ r: inout ByteReader) throws -> String {
            let name = try r.string()
            let pk = try r.count()
            let n = try r.count(minimumSize: 3)
            guard n > 0, pk < n else { throw FileFormatError("table \(name) has a bad primary key ordinal") }
            var fields: [FieldSchema] = []
            var kinds: [String] = []
            for _ in 0..<n {
                let fieldName = try r.string()
                let kind = try r.string()
                let flags = try r.u8()
                guard flags <= 3 else { throw FileFormatError("bad field flags \(flags)") }
                guard !fields.contains(where: { $0.name == fieldName }) else { throw FileFormatError("field \(fieldName) defined twice in \(name)") }
                fields.append(FieldSchema(name: fieldName, kind: .embedded([:]), isOptional: flags & 1 != 0, isIndexed: flags & 2 != 0 || fields.count == pk))
                kinds.append(kind)
            }
            let stored = ObjectSchema(name: name, fields: fields, primaryKeyIndex: pk, type: nil, kindNames: kinds)
            if let existing = tables[name] {
                guard existing.schema.layout == stored.layout else { throw FileFormatError("table \(name) is defined twice with different fields") }
                return name
            }
            var schema = stored
            if let code = codeSchemas[name] {
                if code.layout == stored.layout { schema = code } else { mismatched.append((stored, code)) }
            }
            tables[name] = TableState(schema: schema)
            checks[name] = ValueCheck.checks(for: stored)
            return name
        }

        mutating func readTable(_ r: inout ByteReader) throws {
            let name = try readDefinition(&r)
            var table = tables.removeValue(forKey: name)!
            defer { tables[name] = table }
            let n = try r.count()
            table.reserveCapacity(n)
            for _ in 0..<n { try insert(try r.row(), into: &table) }
        }

        private func insert(_ row: Row, into table: inout TableState) throws {
            guard row.count == table.schema.fields.count else {
                throw FileFormatError("a \(table.schema.name) row has \(row.count) fields, not \(table.schema.fields.count)")
            }
            if let problem = ValueCheck.problem(in: row, schema: table.schema, checks: checks[table.schema.name]!) {
                throw FileFormatError(problem)
            }
            guard table.slot(forKey: row[table.schema.primaryKeyIndex]) == nil else {
                throw FileFormatError("duplicate primary key \(row[table.schema.primaryKeyIndex].literal.prefix(60)) in \(table.schema.name)")
            }
            table.insert(row)
        }

        mutating func readCommit(_ r: inout ByteReader) throws {
            let defs = try r.count()
            for _ in 0..<defs { _ = try readDefinition(&r) }
            let n = try r.count(minimumSize: 2)
            var currentName = ""
            var current: TableState?
            defer { if let current { tables[currentName] = current } }
            for _ in 0..<n {
                let tag = try r.u8()
                guard let change = Change(rawValue: tag) else { throw FileFormatError("unknown change \(tag)") }
                let name = try r.string()
                if name != currentName || current == nil {
                    if let old = current { tables[currentName] = old }
                    guard let table = tables.removeValue(forKey: name) else {
                        current = nil
                        throw FileFormatError("a change to undefined table \(name)")
                    }
                    current = table
                    currentName = name
                }
                switch change {
                case .insert:
                    try insert(try r.row(), into: &current!)
                case .update:
                    let key = try r.value()
                    guard let slot = current!.slot(forKey: key), var row = current!.row(slot) else {
                        throw FileFormatError("an update of missing \(name) \(key.literal.prefix(60))")
                    }
                    let count = try r.count(minimumSize: 2)
                    for _ in 0..<count {
                        let field = try r.varint()
                        guard field < UInt64(row.count), Int(field) != current!.schema.primaryKeyIndex else {
                            throw FileFormatError("an update of bad field \(field) in \(name)")
                        }
                        let value = try r.value()
                        let schema = current!.schema
                        guard checks[name]![Int(field)].accepts(value, optional: schema.fields[Int(field)].isOptional) else {
                            throw FileFormatError("\(name).\(schema.fields[Int(field)].name) set to \(value.kindName), not \(schema.kindNames[Int(field)])")
                        }
                        row[Int(field)] = value
                    }
                    current!.replace(slot: slot, with: row)
                case .delete:
                    let key = try r.value()
                    guard let slot = current!.slot(forKey: key) else {
                        throw FileFormatError("a delete of missing \(name) \(key.literal.prefix(60))")
                    }
                    current!.delete(slot: slot)
                }
            }
        }

        mutating func finish() -> [String: TableState] {
            for name in Array(tables.keys) { tables[name]!.compactIfNeeded() }
            return tables
        }
    }
}

/// What values a field of a stored kind may hold: checked for every row read from a file (so a
/// damaged or foreign file is reported at open, not met as a value the model cannot decode)
/// and for every row a migration produces.
indirect enum ValueCheck {
    case int, double, bool, string, date, data, uuid, decimal, link, any
    case list(ValueCheck)

    /// The check for a kind as the file spells it (`FieldKind.description`).
    init(kindName: String) {
        switch kindName {
        case "int": self = .int
        case "double": self = .double
        case "bool": self = .bool
        case "string": self = .string
        case "date": self = .date
        case "data": self = .data
        case "uuid": self = .uuid
        case "decimal": self = .decimal
        default:
            if kindName.hasPrefix("link<") {
                self = .link
            } else if kindName.hasPrefix("list<"), kindName.hasSuffix(">") {
                self = .list(ValueCheck(kindName: String(kindName.dropFirst(5).dropLast())))
            } else {
                self = .any   // embedded values: whatever their Codable form is
            }
        }
    }

    static func checks(for schema: ObjectSchema) -> [ValueCheck] { schema.kindNames.map(ValueCheck.init(kindName:)) }

    /// Thrown by `ByteReader.skipValue` for a well-formed value that does not fit its check.
    struct Mismatch: Error {}

    var isAny: Bool { if case .any = self { return true } else { return false } }
    var isBool: Bool { if case .bool = self { return true } else { return false } }

    /// Whether `value` fits (`nil` allowed when the field is optional, and for links, whose
    /// targets may be gone).
    func accepts(_ value: StoreValue, optional: Bool) -> Bool {
        switch (self, value) {
        case (_, .null): return optional || { if case .link = self { return true } else if case .any = self { return true } else { return false } }()
        case (.any, _): return true
        case (.int, .int), (.bool, .bool), (.string, .string), (.date, .date), (.data, .data), (.uuid, .uuid): return true
        case (.double, .double), (.double, .int): return true
        case (.decimal, .decimal), (.decimal, .int), (.decimal, .double): return true
        case (.link, .int), (.link, .string), (.link, .uuid): return true
        case (.list(let element), .list(let items)): return items.allSatisfy { element.accepts($0, optional: true) }
        default: return false
        }
    }

    /// The first field of `row` that does not fit `schema`, described.
    static func problem(in row: Row, schema: ObjectSchema, checks: [ValueCheck]) -> String? {
        for (i, check) in checks.enumerated() where !check.accepts(row[i], optional: schema.fields[i].isOptional) {
            return "\(schema.name).\(schema.fields[i].name) holds \(row[i].kindName), not \(schema.kindNames[i])\(schema.fields[i].isOptional ? "?" : "")"
        }
        return nil
    }
}

extension StoreValue {
    /// The value's kind, for messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a bool"
        case .int: return "an int"
        case .double: return "a double"
        case .string: return "a string"
        case .date: return "a date"
        case .data: return "data"
        case .uuid: return "a uuid"
        case .decimal: return "a decimal"
        case .list: return "a list"
        case .map: return "an embedded value"
        }
    }
}
