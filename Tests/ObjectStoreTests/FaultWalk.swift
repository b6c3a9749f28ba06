import Foundation
import Testing
@testable import ObjectStore

/// The write paths the fault and power-cut walks go over, and one run of a path on a
/// ``SimulatedFileSystem``: what was acknowledged, what was attempted, what was thrown.
enum FaultWalk {
    typealias S = FileStoreSupport

    /// One write path: how its starting file is made (with the real disk), and its steps.
    struct Path: Sendable, CustomStringConvertible {
        let name: String
        /// The ids the starting file holds (all durable).
        let prepared: [Int]
        /// The schema version the run opens with (1 for the migration).
        var schemaVersion: UInt64 = 0
        var autoCompaction: Store.AutoCompaction = .never
        /// Makes the starting file; `nil` starts with no file.
        let prepare: (@Sendable (URL) throws -> Void)?
        /// The steps, run on `run` (each catches its own error).
        let steps: @Sendable (Run) async -> Void
        var description: String { name }
    }

    /// The copy `writeCopy(toFile:)` writes, next to the store.
    static func copyURL(_ url: URL) -> URL { url.deletingLastPathComponent().appendingPathComponent("copy.store") }

    /// Writes ids `ids` as one commit each, with the real disk.
    static func write(_ ids: [Int], to url: URL, schemaVersion: UInt64 = 0) throws {
        let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self], schemaVersion: schemaVersion, autoCompaction: .never))
        for id in ids { try store.write { try $0.add(Memo(id: id, topic: "t", text: "memo \(id)")) } }
    }

    static let paths: [Path] = [
        Path(name: "commit", prepared: [], prepare: nil) { run in
            run.open()
            for id in 1...3 { run.commit(id) }
        },
        Path(name: "asyncWrite", prepared: [], prepare: nil) { run in
            run.open()
            for id in 1...3 { await run.asyncCommit(id) }
        },
        Path(name: "compact()", prepared: [1, 2], prepare: { try write([1, 2], to: $0) }) { run in
            run.open()
            run.compact()
            run.commit(3)
        },
        Path(name: "automatic compaction", prepared: [], autoCompaction: Store.AutoCompaction(logMultiple: 1, minimumBytes: 0),
             prepare: nil) { run in
            run.open()
            for id in 1...3 { run.commit(id) }   // each one compacts after it
        },
        Path(name: "writeCopy(toFile:)", prepared: [1, 2], prepare: { try write([1, 2], to: $0) }) { run in
            run.open()
            run.writeCopy()
            run.commit(3)
        },
        Path(name: "migration", prepared: [1, 2], schemaVersion: 1, prepare: { try write([1, 2], to: $0) }) { run in
            run.open()
            run.commit(3)
        },
        Path(name: "open with a torn tail", prepared: [1, 2], prepare: { url in
            try write([1, 2], to: url)
            let size = S.bytes(url).count
            try write([3], to: url)
            let whole = S.bytes(url)
            S.write(Array(whole.prefix(size + (whole.count - size) / 2)), to: url)   // commit 3 half written
        }) { run in
            run.open()
            run.commit(4)
        },
    ]

    /// One run of a path on a simulated disk.
    final class Run: @unchecked Sendable {
        let url: URL
        let path: Path
        let disk = SimulatedFileSystem()
        private(set) var store: Store?
        /// The ids in the store when every acknowledged step is counted: the prepared ones and
        /// each commit that returned.
        private(set) var acknowledged: [Int]
        /// The ids of every commit begun, in order (an unacknowledged one may or may not be kept).
        private(set) var attempted: [Int]
        /// Whether `writeCopy(toFile:)` returned.
        private(set) var copyAcknowledged = false
        /// Every error thrown, with the step that threw it.
        private(set) var errors: [(step: String, error: any Error)] = []

        init(_ path: Path, in url: URL) {
            self.path = path
            self.url = url
            acknowledged = path.prepared
            attempted = path.prepared
            disk.adopt(url.path)
        }

        var configuration: Store.Configuration {
            var configuration = Store.Configuration.file(url: url, objectTypes: [Memo.self], schemaVersion: path.schemaVersion,
                                                         durability: .full, autoCompaction: path.autoCompaction)
            configuration.fileSystem = disk
            return configuration
        }

        private func record(_ step: String, _ body: () throws -> Void) {
            do { try body() } catch { errors.append((step, error)) }
        }

        func open() { record("open") { store = try Store(configuration: configuration) } }

        func commit(_ id: Int) {
            guard let store else { return }
            attempted.append(id)
            record("commit \(id)") {
                try store.write { try $0.add(Memo(id: id, topic: "t", text: "memo \(id)")) }
                acknowledged.append(id)
            }
        }

        func asyncCommit(_ id: Int) async {
            guard let store else { return }
            attempted.append(id)
            do {
                try await store.asyncWrite { try $0.add(Memo(id: id, topic: "t", text: "memo \(id)")) }
                acknowledged.append(id)
            } catch {
                errors.append(("asyncWrite \(id)", error))
            }
        }

        func compact() { record("compact") { try store?.compact() } }

        func writeCopy() {
            record("writeCopy") {
                try store?.writeCopy(toFile: FaultWalk.copyURL(url))
                copyAcknowledged = store != nil
            }
        }

        /// Lets go of the store (its file closed).
        func close() { store = nil }
    }

    /// The ids store file `bytes` holds, written to a new folder and opened there with the real
    /// disk at `schemaVersion` (so no store still open on the original path is reused).
    static func ids(in bytes: [UInt8], schemaVersion: UInt64) throws -> [Int] {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        S.write(bytes, to: url)
        return try ids(at: url, schemaVersion: schemaVersion)
    }

    /// The ids a store file holds, opened with the real disk at `schemaVersion`.
    static func ids(at url: URL, schemaVersion: UInt64) throws -> [Int] {
        let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self], schemaVersion: schemaVersion, autoCompaction: .never))
        return store.objects(Memo.self).map(\.id).sorted()
    }
}
