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
    /// - Parameters:
    ///   - fileSystem: Where the copy's file operations go.
    ///   - syncingDirectory: Makes the link durable (`syncDirectory` through `fileSystem`,
    ///     unless a test passes a failing one). When it fails, the copy is removed again and its
    ///     error thrown: the caller is never told of a copy a power cut could still take away.
    /// - Throws: ``StoreError/io(path:reason:)``, also when `path` already exists.
    static func writeCopy(_ tables: [String: TableState], version: Int, schemaVersion: UInt64, to path: String,
                          in fileSystem: any FileSystem,
                          syncingDirectory: ((String) throws -> Void)? = nil) throws {
        let temp = path + ".copy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600, in: fileSystem)
        guard fd >= 0 else { throw ioError(temp, "create") }
        defer { fileSystem.close(fd); fileSystem.unlink(temp) }
        do {
            _ = fchmod(fd, 0o600)
            let header = FileFormat.fileHeader()
            try writeAll(fd, header, at: 0, path: temp, in: fileSystem)
            var offset = header.count
            let written = try FileFormat.writePagedSnapshot(tables, schemaVersion: schemaVersion, version: version) { chunk in
                try writeAll(fd, chunk, at: offset, path: temp, in: fileSystem)
                offset += chunk.count
            }
            try writeAll(fd, written.meta, at: FileFormat.headerSize, path: temp, in: fileSystem)
        } catch let error as FileFormatError {
            throw StoreError.io(path: path, reason: error.reason)
        }
        guard sync(fd, in: fileSystem) else { throw ioError(temp, "fsync") }
        guard fileSystem.link(temp, to: path) else {
            if errno == EEXIST { throw StoreError.io(path: path, reason: "the file already exists (writeCopy never replaces a file)") }
            throw ioError(path, "link")
        }
        do {
            if let syncingDirectory { try syncingDirectory(path) } else { try syncDirectory(of: path, in: fileSystem) }
        } catch {
            fileSystem.unlink(path)
            throw error
        }
    }
}
