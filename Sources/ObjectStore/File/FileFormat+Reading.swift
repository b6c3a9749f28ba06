import Foundation

extension FileFormat {
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
            throw checksumMismatch("the file header's", record: 0, covering: 0..<headerSize)
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
                throw checksumMismatch("a record header's", record: origin + offset, covering: (origin + offset)..<(origin + offset + recordHeaderSize))
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
                throw checksumMismatch("a record's", record: origin + offset, covering: (origin + offset + recordHeaderSize)..<(origin + end),
                                      checksum: (origin + offset + 4)..<(origin + offset + 8))
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
                case .directory, .rowPage, .keyPage, .indexPage:
                    let known = format >= 4 || (format == 3 && kind != .indexPage)
                    throw FileFormatError(known ? "a snapshot page in the log" : "unknown record kind \(kindByte)")
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
}
