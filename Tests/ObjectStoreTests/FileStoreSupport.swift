import Foundation
@testable import ObjectStore

/// Shared helpers for the file store's tests: temporary files and the models the crash helper
/// writes (same names and fields as in Sources/StoreCrashHelper/main.swift).
enum FileStoreSupport {
    /// A fresh path in a new temporary directory (the directory is removed by `cleanUp`).
    static func temporaryFile(_ name: String = "test.store") -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectstore-tests-\(getpid())-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name)
    }

    static func cleanUp(_ url: URL) {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    static func bytes(_ url: URL) -> [UInt8] { [UInt8]((try? Data(contentsOf: url)) ?? Data()) }

    static func write(_ bytes: [UInt8], to url: URL) { try! Data(bytes).write(to: url) }

    /// The same file in format 2, as the library wrote it before format 3: the snapshot's
    /// tables rewritten as format 2 `table` records and a seal, the log after it kept byte for
    /// byte (commits are the same in both formats).
    static func formatTwo(_ bytes: [UInt8]) -> [UInt8] {
        let whole = try! bytes.withUnsafeBytes { try FileFormat.read($0, path: "", codeSchemas: [:]) }
        let snapshot = try! Array(bytes[..<whole.snapshotEnd]).withUnsafeBytes { try FileFormat.read($0, path: "", codeSchemas: [:]) }
        var old = FileFormat.fileHeader(format: 2)
        try! FileFormat.writeFormat2Snapshot(snapshot.tables, schemaVersion: snapshot.schemaVersion, version: snapshot.version) { old += $0 }
        return old + bytes[whole.snapshotEnd...]
    }

    /// The offsets at which each record starts, and the file's size (walks the framing only).
    static func recordOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = FileFormat.headerSize
        while offset + FileFormat.recordHeaderSize <= bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            offsets.append(offset)
            offset += FileFormat.recordHeaderSize + length
        }
        return offsets
    }

    /// The reason a damaged page (or other record) at `record` of `bytes` is reported with: its
    /// payload's checksum, with the bytes it covers.
    static func payloadMismatch(_ bytes: [UInt8], record: Int, what: String = "a page's") -> String {
        let length = Int(bytes[record]) | Int(bytes[record + 1]) << 8 | Int(bytes[record + 2]) << 16 | Int(bytes[record + 3]) << 24
        let payload = record + FileFormat.recordHeaderSize
        return "\(what) checksum does not match: a byte in \(payload)–\(payload + length - 1) or in its checksum at \(record + 4)–\(record + 7) is not as written"
    }

    /// Gives the record at `record` the checksums of its bytes as they are now (its payload's,
    /// then its header's), as a program writing the format by hand would after changing them.
    static func stampChecksums(_ bytes: inout [UInt8], record: Int) {
        let length = Int(bytes[record]) | Int(bytes[record + 1]) << 8 | Int(bytes[record + 2]) << 16 | Int(bytes[record + 3]) << 24
        let payload = record + FileFormat.recordHeaderSize
        let crc = bytes[payload..<payload + length].withUnsafeBytes { CRC32C.checksum($0) }
        for k in 0..<4 { bytes[record + 4 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
        let headerCRC = bytes[record..<record + 8].withUnsafeBytes { CRC32C.checksum($0) }
        for k in 0..<4 { bytes[record + 8 + k] = UInt8(truncatingIfNeeded: headerCRC >> (8 * k)) }
    }
}

/// The crash helper's models (the helper is a separate executable, so they are declared twice).
struct Entry: StoreObject, Equatable {
    static var primaryKey: KeyPath<Entry, String> { \.id }
    var id: String
    var batch: Int
    var payload: String
}

struct Progress: StoreObject, Equatable {
    static var primaryKey: KeyPath<Progress, Int> { \.id }
    var id: Int
    var last: Int
}

/// A small model for the file tests.
struct Memo: StoreObject, Equatable {
    static var primaryKey: KeyPath<Memo, Int> { \.id }
    static var indexedProperties: [String] { ["topic"] }
    var id: Int
    var topic: String
    var text: String
}
