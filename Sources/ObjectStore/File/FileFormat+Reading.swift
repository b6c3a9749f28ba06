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
        try readOldFormat(bytes, format: format, contents: &contents, loader: &loader)
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

    /// Reads the log of a file of a paged format (3 and later): the commit records from the start of `bytes`, which
    /// begin at file offset `origin`, the end of the snapshot. Fills in `contents`' version,
    /// valid end and commit count. A record that is not whole is a commit torn by a crash, and
    /// ends the log.
    static func readLog(_ bytes: UnsafeRawBufferPointer, origin: Int, format: UInt32,
                        contents: inout Contents, loader: inout Loader) throws {
        let end = try forEachRecord(bytes, origin: origin, from: 0, mayBeTorn: { _ in true }) { kind, kindByte, p, _ in
            switch kind {
            case .commit:
                try loader.readCommit(&p)
                contents.commits += 1
            case .meta: throw FileFormatError("a second meta record")
            case .table: throw FileFormatError("a snapshot record after the log started")
            case .seal: throw FileFormatError("a second seal record")
            case .directory, .rowPage, .keyPage, .indexPage:
                // Format 3 has no index pages: there, kind 8 is not a kind at all.
                let known = format >= 4 || kind != .indexPage
                throw FileFormatError(known ? "a snapshot page in the log" : "unknown record kind \(kindByte)")
            }
        }
        contents.validEnd = origin + end
        contents.version += contents.commits
    }
}
