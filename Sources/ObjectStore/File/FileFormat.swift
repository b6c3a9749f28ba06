import Foundation

/// Whether reading a store file checks record checksums. Only the fuzz target turns this off,
/// so that it reaches the record decoders with inputs a checksum would reject.
package nonisolated(unsafe) var _storeFileVerifiesChecksums = true

/// The store file's layout, the one specification the code and
/// `Guides/ObjectStore-FileFormat.md` must agree with: a 16-byte file header, then framed
/// records. The library writes format 5 (a snapshot of pages the store reads where they lie,
/// when first used, its row pages laid out by field, the secondary indexes stored as pages,
/// then the log of commits); it reads formats 1 to 4 as well.
///
///     header := "RMVSTORE" u32(formatVersion) u32(crc32c of the 12 bytes before)
///     record := u32(length) u32(crc32c of payload) u32(crc32c of the 8 bytes before) payload
///     payload:= u8(kind) body
///
/// Format 5 (written in `FileFormat+PagedWriting.swift`, `FieldLaidRows.swift` and
/// `IndexPages.swift`, read in `FileFormat+PagedReading.swift`, `FieldLaidRows.swift` and
/// `PagedTable+StoredIndexes.swift`):
///
///     file     := header snapshot commit*
///     snapshot := meta page* directory
///     meta       (kind 1) := schemaVersion u64, version varint, directoryOffset u64
///     row page   (kind 6) := rowCount varint, fieldCount varint, (headsEnd u32, tailsEnd u32) × fieldCount,
///                            (tag u8 × rowCount, heads, tails) × fieldCount          (see `FieldLaidRows`)
///     key page   (kind 7) := keyCount varint, keyOffset u32 × (keyCount + 1), (key value, slot varint) × keyCount
///     index page (kind 8) := entryCount varint, entryOffset u32 × (entryCount + 1), (value, slot varint) × entryCount
///     directory  (kind 5) := tableCount varint, (definition, rowCount varint,
///                            rowPageCount varint, (offset u64, length u32) × rowPageCount,
///                            keyPageCount varint, (offset u64, length u32, firstKey value) × keyPageCount,
///                            indexCount varint, (field varint, indexPageCount varint,
///                                (offset u64, length u32, firstValue value) × indexPageCount) × indexCount) × tableCount
///
/// Format 4, still read in place: format 5 with row pages laid out by row,
///
///     row page   (kind 6) := rowCount varint, rowOffset u32 × (rowCount + 1), row × rowCount
///
/// Format 3, still read in place: format 4 without index pages, and without `indexCount` and
/// what follows it in the directory.
///
/// Formats 2 and 1, still read (in `FileFormat+OldFormats.swift`; a file in them is rewritten in
/// format 5 when opened):
///
///     file   := header meta table* seal commit*        (format 1: no seal)
enum FileFormat {
    static let magic: [UInt8] = Array("RMVSTORE".utf8)
    /// The format this library writes: 5, a snapshot of pages read in place, row pages laid out
    /// by field, secondary indexes included. Formats 1 (no `seal` record) and 2 (a snapshot
    /// read whole) are still read, and a store file in them is rewritten in this format when it
    /// is opened; formats 3 (no index pages) and 4 (row pages laid out by row) are read in
    /// place, and their next compaction writes format 5.
    static let formatVersion: UInt32 = 5
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
        /// The last record of a paged snapshot (format 3 and later): each table's definition and pages.
        case directory = 5
        /// From format 3 on: up to `PagedTable.rowsPerPage` rows of a table, with their offsets (laid
        /// out by field from format 5 on, see `FieldLaidRows`).
        case rowPage = 6
        /// From format 3 on: up to `PagedTable.keysPerPage` primary keys of a table, sorted, with slots.
        case keyPage = 7
        /// From format 4 on: up to `indexEntriesPerPage` entries of one indexed field's index, sorted by
        /// value then slot.
        case indexPage = 8
    }

    enum Change: UInt8 { case insert = 0, update = 1, delete = 2 }

    static func fileHeader(format: UInt32 = formatVersion) -> [UInt8] {
        var w = ByteWriter()
        w.bytes = magic
        w.u32(format)
        w.u32(w.bytes.withUnsafeBytes { CRC32C.checksum($0) })
        return w.bytes
    }
}
