import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoreFile {
    /// Writes `tables` at `version` as a new, compact store file at `path` (what a compaction
    /// writes): to a temporary file first, synced, then linked into place, so the copy is
    /// whole or absent, and never replaces an existing file.
    ///
    /// - Parameter syncingDirectory: Makes the link durable (`syncDirectory`, unless a test
    ///   passes a failing one). When it fails, the copy is removed again and its error thrown:
    ///   the caller is never told of a copy a power cut could still take away.
    /// - Throws: ``StoreError/io(path:reason:)``, also when `path` already exists.
    static func writeCopy(_ tables: [String: TableState], version: Int, schemaVersion: UInt64, to path: String,
                          syncingDirectory: (String) throws -> Void = StoreFile.syncDirectory) throws {
        let temp = path + ".copy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = systemOpen(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioError(temp, "create") }
        defer { close(fd); unlink(temp) }
        do {
            _ = fchmod(fd, 0o600)
            let header = FileFormat.fileHeader()
            try writeAll(fd, header, at: 0, path: temp)
            var offset = header.count
            let written = try FileFormat.writePagedSnapshot(tables, schemaVersion: schemaVersion, version: version) { chunk in
                try writeAll(fd, chunk, at: offset, path: temp)
                offset += chunk.count
            }
            try writeAll(fd, written.meta, at: FileFormat.headerSize, path: temp)
        } catch let error as FileFormatError {
            throw StoreError.io(path: path, reason: error.reason)
        }
        guard sync(fd) else { throw ioError(temp, "fsync") }
        guard link(temp, path) == 0 else {
            if errno == EEXIST { throw StoreError.io(path: path, reason: "the file already exists (writeCopy never replaces a file)") }
            throw ioError(path, "link")
        }
        do {
            try syncingDirectory(path)
        } catch {
            unlink(path)
            throw error
        }
    }
}
