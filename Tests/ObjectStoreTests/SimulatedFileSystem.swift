import Foundation
@testable import ObjectStore

/// A disk for fault tests: every operation goes to the real file system, and is also recorded
/// against a model of what a power cut would leave. Per file the model keeps the durable bytes
/// and the changes (writes, truncations) made since its last sync, in order; per directory the
/// entries (creations, links, renames, removals) as they are and as they were at the last
/// directory sync. It can fail its N-th operation (counted over every fallible operation:
/// open, write, sync, directory sync, truncate, rename, link) with a ``Fault``, and produce
/// the files a power cut at any moment would leave (``powerCut(_:)``).
final class SimulatedFileSystem: FileSystem, @unchecked Sendable {
    /// How the chosen operation fails.
    enum Fault: CaseIterable, CustomStringConvertible {
        /// `EIO`.
        case ioError
        /// `ENOSPC`: a full disk.
        case diskFull
        /// `EINTR`, once: the caller must retry, and nothing may show it.
        case interrupted
        /// A write that writes only the first half (at least one byte) of what it was given.
        case shortWrite

        var description: String {
            switch self {
            case .ioError: "EIO"
            case .diskFull: "ENOSPC"
            case .interrupted: "EINTR"
            case .shortWrite: "short write"
            }
        }

        /// Whether operation `kind` can fail this way (a short write only writes; EINTR only
        /// interrupts calls that can block; ENOSPC needs something to allocate).
        func applies(to kind: Operation) -> Bool {
            switch (self, kind) {
            case (.ioError, _): true
            case (.shortWrite, .write): true
            case (.shortWrite, _): false
            case (.interrupted, .rename), (.interrupted, .link): false
            case (.interrupted, _): true
            case (.diskFull, .open(let creating)): creating
            case (.diskFull, _): true
            }
        }
    }

    /// The fallible operations, as counted.
    enum Operation: Equatable {
        case open(creating: Bool), write, sync, syncDirectory, truncate, rename, link
    }

    /// One change to a file not yet synced.
    private enum Change {
        case write(offset: Int, bytes: [UInt8])
        case truncate(Int)
    }

    /// One file (an inode): its durable bytes and its changes since the last sync.
    private final class Node {
        var durable: [UInt8]
        var pending: [Change] = []
        init(durable: [UInt8]) { self.durable = durable }
    }

    private let lock = NSLock()
    private let real = POSIXFileSystem()
    private var count = 0
    private var kinds: [Operation] = []
    private var fault: (index: Int, fault: Fault)?
    private var current: [String: Node] = [:]
    private var durableEntries: [String: Node] = [:]
    private var descriptors: [Int32: Node] = [:]
    /// Called before operation number N (from 0) is made, outside the disk's lock: a test cuts
    /// the power there.
    var beforeOperation: ((Int) -> Void)?

    /// Takes the file at `path` as it is on the real disk as durable (a file made before the
    /// test's disk was, which a power cut keeps).
    func adopt(_ path: String) { lock.withLock { _ = node(at: path) } }

    /// The fallible operations made so far, in order.
    var operations: [Operation] { lock.withLock { kinds } }

    /// Fails operation `index` (counted from 0 over the disk's life) with `fault`, once.
    func fail(operation index: Int, with fault: Fault) { lock.withLock { self.fault = (index, fault) } }

    /// Counts an operation of `kind` and says whether it is the one to fail (with `errno` set).
    private func fails(_ kind: Operation) -> Fault? {
        let index = lock.withLock { () -> Int in
            kinds.append(kind)
            count += 1
            return count - 1
        }
        beforeOperation?(index)
        guard let planned = lock.withLock({ fault }), planned.index == index, planned.fault.applies(to: kind) else { return nil }
        switch planned.fault {
        case .ioError: errno = EIO
        case .diskFull: errno = ENOSPC
        case .interrupted: errno = EINTR
        case .shortWrite: break
        }
        return planned.fault
    }

    /// The node at `path`, made from the real file when the disk has not seen it yet (a file
    /// written before the test's disk was made counts as durable).
    private func node(at path: String) -> Node? {
        if let node = current[path] { return node }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let node = Node(durable: [UInt8](data))
        current[path] = node
        durableEntries[path] = node
        return node
    }

    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        let creating = flags & O_CREAT != 0
        if fails(.open(creating: creating)) != nil { return -1 }
        let existed = lock.withLock { node(at: path) != nil }
        let fd = real.open(path, flags, mode)
        guard fd >= 0 else { return fd }
        lock.withLock {
            let node: Node
            if let known = current[path], existed {
                node = known
                if flags & O_TRUNC != 0 { node.pending.append(.truncate(0)) }
            } else {
                node = Node(durable: [])
                current[path] = node
            }
            descriptors[fd] = node
        }
        return fd
    }

    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        var bytes = bytes
        switch fails(.write) {
        case .shortWrite?: bytes = UnsafeRawBufferPointer(rebasing: bytes[..<max(1, bytes.count / 2)])
        case _?: return -1
        case nil: break
        }
        let n = real.write(fd, bytes, at: offset)
        if n > 0 {
            lock.withLock { descriptors[fd]?.pending.append(.write(offset: offset, bytes: [UInt8](bytes[..<n]))) }
        }
        return n
    }

    func sync(_ fd: Int32) -> Bool {
        if fails(.sync) != nil { return false }
        guard real.sync(fd) else { return false }
        lock.withLock {
            guard let node = descriptors[fd] else { return }
            node.durable = Self.apply(node.pending, to: node.durable, keeping: { _ in .whole })
            node.pending = []
        }
        return true
    }

    func syncDirectory(_ dir: String) -> Bool {
        if fails(.syncDirectory) != nil { return false }
        guard real.syncDirectory(dir) else { return false }
        lock.withLock {
            for path in Set(current.keys).union(durableEntries.keys) where (path as NSString).deletingLastPathComponent == dir {
                durableEntries[path] = current[path]
            }
        }
        return true
    }

    func truncate(_ fd: Int32, to size: Int) -> Bool {
        if fails(.truncate) != nil { return false }
        guard real.truncate(fd, to: size) else { return false }
        lock.withLock { descriptors[fd]?.pending.append(.truncate(size)) }
        return true
    }

    func rename(_ from: String, to: String) -> Bool {
        if fails(.rename) != nil { return false }
        lock.withLock { _ = node(at: from); _ = node(at: to) }
        guard real.rename(from, to: to) else { return false }
        lock.withLock {
            current[to] = current[from]
            current[from] = nil
        }
        return true
    }

    func link(_ from: String, to: String) -> Bool {
        if fails(.link) != nil { return false }
        lock.withLock { _ = node(at: from); _ = node(at: to) }
        guard real.link(from, to: to) else { return false }
        lock.withLock { current[to] = current[from] }
        return true
    }

    func unlink(_ path: String) {
        lock.withLock { _ = node(at: path) }
        real.unlink(path)
        lock.withLock { current[path] = nil }
    }

    func close(_ fd: Int32) {
        lock.withLock { descriptors[fd] = nil }
        real.close(fd)
    }

    // MARK: Power cuts

    /// What a power cut keeps of one unsynced write.
    enum Kept {
        /// Nothing of it.
        case none
        /// All of it.
        case whole
        /// The sectors (512 bytes, counted from the file's start) it covers up to the n-th
        /// sector boundary after its start; the rest of it is lost.
        case torn(sectors: Int)
    }

    /// The files a power cut now would leave, by path: each durably linked file's synced bytes,
    /// with whatever `keep` says of each change made since (a truncation is kept whole or not
    /// at all). Entries created, linked, renamed or removed since the last directory sync are
    /// forgotten, or, when `keepingEntries`, all kept (a file system may write them early).
    func powerCut(keepingEntries: Bool = false, _ keep: (_ index: Int) -> Kept) -> [String: [UInt8]] {
        lock.withLock {
            var images: [String: [UInt8]] = [:]
            var index = 0
            for (path, node) in (keepingEntries ? current : durableEntries).sorted(by: { $0.key < $1.key }) {
                images[path] = Self.apply(node.pending, to: node.durable) { _ in
                    defer { index += 1 }
                    return keep(index)
                }
            }
            return images
        }
    }

    /// How many unsynced changes a power cut now chooses from (the indexes
    /// ``powerCut(keepingEntries:_:)`` passes to its closure).
    func unsyncedChanges(keepingEntries: Bool = false) -> Int {
        lock.withLock { (keepingEntries ? current : durableEntries).values.reduce(0) { $0 + $1.pending.count } }
    }

    private static func apply(_ changes: [Change], to durable: [UInt8], keeping keep: (Change) -> Kept) -> [UInt8] {
        var bytes = durable
        for change in changes {
            let kept = keep(change)
            switch change {
            case .truncate(let size):
                if case .none = kept { continue }
                if size < bytes.count { bytes.removeSubrange(size...) } else { bytes += [UInt8](repeating: 0, count: size - bytes.count) }
            case .write(let offset, let written):
                var part = written
                switch kept {
                case .none: continue
                case .whole: break
                case .torn(let sectors):
                    let end = (offset / 512 + sectors) * 512
                    part = Array(written.prefix(max(0, min(written.count, end - offset))))
                }
                if bytes.count < offset + part.count { bytes += [UInt8](repeating: 0, count: offset + part.count - bytes.count) }
                bytes.replaceSubrange(offset..<offset + part.count, with: part)
            }
        }
        return bytes
    }
}
