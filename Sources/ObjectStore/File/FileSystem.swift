import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations a store's write paths make, one system call each, so that a test can
/// fail any one of them or cut the power after it (`SimulatedFileSystem` in the tests);
/// ``POSIXFileSystem`` makes them in production. Each reports failure as its system call
/// does (`-1` or `false`, with `errno` set); `StoreFile+SystemCalls.swift` retries `EINTR`
/// and turns `errno` into a ``StoreError``.
///
/// The seam is at the level of whole operations: one dynamic call per write, sync, truncate,
/// rename or open, each far cheaper than the system call behind it. Reading pages
/// (`PagedFile`'s `pread`) does not go through it: that is the hot path, and a read changes
/// nothing a power cut could lose.
protocol FileSystem: Sendable {
    /// `open(2)`: a descriptor, or `-1`.
    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    /// `pwrite(2)`: the bytes written (perhaps fewer than asked), or `-1`.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int
    /// A file's bytes (and size) made durable: `syncToDevice(fd, dataOnly: true)`.
    func sync(_ fd: Int32) -> Bool
    /// The entries of directory `dir` made durable (opened, synced, closed), so that a
    /// creation, link or rename in it survives a power cut.
    func syncDirectory(_ dir: String) -> Bool
    /// `ftruncate(2)`.
    func truncate(_ fd: Int32, to size: Int) -> Bool
    /// `rename(2)`.
    func rename(_ from: String, to: String) -> Bool
    /// `link(2)`.
    func link(_ from: String, to: String) -> Bool
    /// `unlink(2)`; its failure is ignored by every caller (a temporary file left behind).
    func unlink(_ path: String)
    /// `close(2)`.
    func close(_ fd: Int32)
}

/// The system calls themselves: what every store uses unless a test gives it another
/// ``FileSystem``.
struct POSIXFileSystem: FileSystem {
    /// Calls `open(2)` through `systemOpen`.
    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { systemOpen(path, flags, mode) }

    /// Calls `pwrite(2)`.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        pwrite(fd, bytes.baseAddress!, bytes.count, off_t(offset))
    }

    /// Calls `syncToDevice` (`fdatasync`, `F_FULLFSYNC` on Apple platforms).
    func sync(_ fd: Int32) -> Bool { syncToDevice(fd, dataOnly: true) }

    /// Opens `dir` read-only and syncs it with `syncToDevice`; `errno` is the failure's.
    func syncDirectory(_ dir: String) -> Bool {
        let fd = systemOpen(dir, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        let synced = syncToDevice(fd, dataOnly: false)
        let code = errno
        closeFile(fd)
        errno = code
        return synced
    }

    /// Calls `ftruncate(2)`.
    func truncate(_ fd: Int32, to size: Int) -> Bool { ftruncate(fd, off_t(size)) == 0 }

    /// Calls `rename(2)`.
    func rename(_ from: String, to: String) -> Bool { renameFile(from, to) == 0 }

    /// Calls `link(2)`.
    func link(_ from: String, to: String) -> Bool { linkFile(from, to) == 0 }

    /// Calls `unlink(2)`.
    func unlink(_ path: String) { _ = unlinkFile(path) }

    /// Calls `close(2)`.
    func close(_ fd: Int32) { closeFile(fd) }
}

// The system calls under names of their own: inside `POSIXFileSystem` the plain names are its
// methods.

/// `close(2)`.
private func closeFile(_ fd: Int32) { close(fd) }
/// `rename(2)`.
private func renameFile(_ from: String, _ to: String) -> Int32 { rename(from, to) }
/// `link(2)`.
private func linkFile(_ from: String, _ to: String) -> Int32 { link(from, to) }
/// `unlink(2)`.
private func unlinkFile(_ path: String) -> Int32 { unlink(path) }
