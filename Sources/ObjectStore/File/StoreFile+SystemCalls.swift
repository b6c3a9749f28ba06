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

    /// Writes all of `bytes` at `offset` through `fileSystem`: a short write is continued, an
    /// `EINTR` retried.
    ///
    /// - Throws: ``StoreError/diskFull(path:operation:)`` or ``StoreError/io(path:reason:)``.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int, path: String, in fileSystem: any FileSystem) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = fileSystem.write(fd, UnsafeRawBufferPointer(rebasing: raw[done...]), at: offset + done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ioError(path, "write")
                }
                done += n
            }
        }
    }

    /// Opens `path` through `fileSystem`, retrying `EINTR`: a descriptor, or `-1` with `errno`.
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0, in fileSystem: any FileSystem) -> Int32 {
        while true {
            let fd = fileSystem.open(path, flags, mode)
            if fd >= 0 || errno != EINTR { return fd }
        }
    }

    /// Cuts the file to `size` through `fileSystem`, retrying `EINTR`; `false` with `errno`.
    static func truncate(_ fd: Int32, to size: Int, in fileSystem: any FileSystem) -> Bool {
        while true {
            if fileSystem.truncate(fd, to: size) { return true }
            if errno != EINTR { return false }
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

    /// Flushes the file's data to the device through `fileSystem` (in production
    /// `syncToDevice`: `F_FULLFSYNC` on Apple platforms, `fdatasync` on Linux), retrying
    /// `EINTR`, which says the sync was interrupted before it finished, not that it failed.
    static func sync(_ fd: Int32, in fileSystem: any FileSystem) -> Bool {
        while true {
            if fileSystem.sync(fd) { return true }
            if errno != EINTR { return false }
        }
    }

    /// Makes a rename or link in the file's directory durable: the directory's entries synced
    /// to the device like a file's bytes (`FileSystem.syncDirectory`), retrying `EINTR`.
    ///
    /// - Throws: ``StoreError/io(path:reason:)`` (or ``StoreError/diskFull(path:operation:)``)
    ///   when the directory cannot be opened or synced. A file system that cannot sync a
    ///   directory at all (`EINVAL`: some network and FUSE ones) counts as synced, as that is
    ///   all it offers; SQLite ignores every such failure.
    static func syncDirectory(of path: String, in fileSystem: any FileSystem) throws {
        let dir = (path as NSString).deletingLastPathComponent
        while !fileSystem.syncDirectory(dir.isEmpty ? "." : dir) {
            if errno == EINTR { continue }
            if errno == EINVAL { return }
            throw ioError(dir, "syncing the directory")
        }
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
