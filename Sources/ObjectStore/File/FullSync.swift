// The one place where syncing a descriptor differs between platforms.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Pushes what was written through `fd` (a file's bytes, or a directory's entries after a
/// rename or link) through the system's and the drive's caches, so that it survives a power
/// cut; `false` (with `errno` set) when the system reports a failure.
///
/// - Apple platforms: `fcntl(F_FULLFSYNC)`, because a plain `fsync` there stops at the
///   drive's cache. A file system that refuses it (some network and external volumes) gets a
///   plain `fsync` instead, as SQLite does: that is as durable as such a volume gets.
/// - Linux: `fdatasync` when `dataOnly` (a file's bytes, and its size, but not its times),
///   `fsync` otherwise (a directory).
func syncToDevice(_ fd: Int32, dataOnly: Bool) -> Bool {
    #if canImport(Darwin)
    return fcntl(fd, F_FULLFSYNC) == 0 || fsync(fd) == 0
    #else
    return (dataOnly ? fdatasync(fd) : fsync(fd)) == 0
    #endif
}
