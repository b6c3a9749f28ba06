import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The store file's system calls: whole reads and writes that retry EINTR, syncs, and the errors
// they report (a full disk has its own case). Kept apart from StoreFile.swift, which decides
// what to write; `systemOpen` holds this file's one platform branch (with FullSync.swift's).
extension StoreFile {
    /// The error for `operation` having failed with the current `errno`: a full disk (or
    /// quota) has its own case.
    static func ioError(_ path: String, _ operation: String) -> StoreError {
        let code = errno
        if code == ENOSPC || code == EDQUOT { return .diskFull(path: path, operation: operation) }
        return .io(path: path, reason: "\(operation) failed: \(String(cString: strerror(code)))")
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int, path: String) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ioError(path, "write")
                }
                done += n
            }
        }
    }

    static func readAll(_ fd: Int32, path: String) throws -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError(path, "stat") }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        try bytes.withUnsafeMutableBytes { raw in
            while done < size {
                let n = pread(fd, raw.baseAddress! + done, size - done, off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ioError(path, "read")
                }
                if n == 0 { break }
                done += n
            }
        }
        if done < size { bytes.removeSubrange(done...) }
        return bytes
    }

    /// Flushes the file's data to the device (see `syncToDevice`: `F_FULLFSYNC` on Apple
    /// platforms, `fdatasync` on Linux).
    static func sync(_ fd: Int32) -> Bool { syncToDevice(fd, dataOnly: true) }

    /// Makes a rename or link in the file's directory durable: the directory's entries synced
    /// to the device like a file's bytes (`syncToDevice`).
    ///
    /// - Throws: ``StoreError/io(path:reason:)`` when the directory cannot be opened or synced.
    ///   A file system that cannot sync a directory at all (`EINVAL`: some network and FUSE
    ///   ones) counts as synced, as that is all it offers; SQLite ignores every such failure.
    static func syncDirectory(of path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let fd = systemOpen(dir.isEmpty ? "." : dir, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError(dir, "opening the directory to sync it") }
        defer { close(fd) }
        guard syncToDevice(fd, dataOnly: false) || errno == EINVAL else { throw ioError(dir, "syncing the directory") }
    }
}

/// `open(2)` under one name on every platform (Foundation overlays it differently).
@inline(__always)
func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    #if canImport(Glibc)
    return Glibc.open(path, flags, mode)
    #else
    return Darwin.open(path, flags, mode)
    #endif
}
