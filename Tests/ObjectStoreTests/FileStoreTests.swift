import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// The file store: persistence across reopen, sharing, locking, permissions, compaction,
/// failed appends and concurrent writers.
@Suite(.resourceCheck) struct FileStoreTests {
    typealias S = FileStoreSupport

    static func open(_ url: URL, _ types: [any StoreObject.Type] = [Pizza.self, Memo.self],
                     durability: Store.Durability = .full, autoCompaction: Store.AutoCompaction = .default) throws -> Store {
        try Store(configuration: .file(url: url, objectTypes: types, durability: durability, autoCompaction: autoCompaction))
    }

    @Test func committedWritesSurviveReopenWithEveryFieldKind() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var expected = Fixture.pizzas
        do {
            let store = try Self.open(url)
            try store.write { tx in try tx.add(Fixture.pizzas, update: .modified) }
            expected[1].price = 950
            expected[1].tags = ["meat", "hot"]
            try store.write { tx in try tx.add(expected[1], update: .modified) }
            try store.write { tx in try tx.delete(Pizza.self, forPrimaryKey: 3) }
            expected.remove(at: 2)
            try store.write { tx in _ = tx }   // an empty write appends nothing
            #expect(store.version == 3)
        }
        let store = try Self.open(url)
        #expect(store.version == 3)
        #expect(store.objects(Pizza.self).sorted(byKeyPath: "id").toArray() == expected)
        #expect(store.objects(Category.self).count == 3)
        #expect(store.objects(Pizza.self).filter("name == %@", "Diavola").count == 1)   // the index was rebuilt
        #expect(store._checkInvariants())
    }

    @Test func storesOnOneFileShareOneInstance() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let first = try Self.open(url)
        let second = try Store(configuration: .file(url: url))
        #expect(first.core === second.core)
        try first.write { try $0.add(Memo(id: 1, topic: "a", text: "shared")) }
        #expect(second.object(ofType: Memo.self, forPrimaryKey: 1)?.text == "shared")
    }

    @Test func concurrentOpensOfOneFileShareOneInstanceStress() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let stores = FileTestBox<[Store]>([])
        let errors = FileTestBox<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<6 {
            group.enter()
            Thread {
                do {
                    let store = try Self.open(url)
                    stores.withLock { $0.append(store) }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
                group.leave()
            }.start()
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(errors.withLock { $0 }.isEmpty)
        let opened = stores.withLock { $0 }
        #expect(opened.count == 6)
        #expect(opened.allSatisfy { $0.core === opened[0].core })
    }

    @Test func filesAreOwnerOnly() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let store = try Self.open(url)
        try store.write { try $0.add(Memo(id: 1, topic: "a", text: "x")) }
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        try store.compact()
        #expect(stat(url.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test(.startsProcesses) func anotherProcessGetsFileLocked() throws {
        let helper = try #require(FileStoreCrashTests.helperURL())
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let pipe = Pipe()
        let process = try ChildProcess(helper, arguments: [url.path, "hold"], output: pipe)
        let reader = OutputReader(pipe.fileHandleForReading)
        reader.waitForFirstLine(timeout: 30)
        #expect(throws: StoreError.fileLocked(path: url.standardizedFileURL.path)) { try Self.open(url) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(reader.finish() == ["opened"])
        let store = try Self.open(url)   // the lock went with the process
        #expect(store.objects(Memo.self).isEmpty)
    }

    @Test func compactKeepsTheDataAndShrinksTheFile() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Self.open(url, autoCompaction: .never)
            for i in 0..<200 { try store.write { try $0.add(Memo(id: i % 5, topic: "t\(i % 3)", text: "version \(i)"), update: .modified) } }
            let before = S.bytes(url).count
            try store.compact()
            let after = S.bytes(url).count
            #expect(after < before / 10)
            try store.write { try $0.add(Memo(id: 99, topic: "after", text: "compaction")) }
            #expect(throws: StoreError.nestedWrite) { try store.write { _ in try store.compact() } }
        }
        let store = try Self.open(url)
        #expect(store.version == 201)
        #expect(store.objects(Memo.self).sorted(byKeyPath: "id").map(\.text) == ["version 195", "version 196", "version 197", "version 198", "version 199", "compaction"])
        #expect(store.objects(Memo.self).filter("topic == %@", "t1").count == 2)
    }

    @Test func theLogIsCompactedAutomatically() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var largest = 0
        do {
            let store = try Self.open(url, autoCompaction: Store.AutoCompaction(logMultiple: 2, minimumBytes: 8 << 10))
            for i in 0..<600 {
                try store.write { try $0.add(Memo(id: i % 10, topic: "t", text: String(repeating: "z", count: 50) + "\(i)"), update: .modified) }
                largest = max(largest, S.bytes(url).count)
            }
        }
        #expect(largest <= 8 << 10 + 200)   // without compaction the log would pass 50 KB
        let store = try Self.open(url)
        #expect(store.objects(Memo.self).count == 10)
        #expect(store.object(ofType: Memo.self, forPrimaryKey: 9)?.text.hasSuffix("599") == true)
    }

    @Test func shouldCompactOnLaunchSeesTotalAndUsedBytes() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Self.open(url, autoCompaction: .never)
            for i in 0..<100 { try store.write { try $0.add(Memo(id: 1, topic: "t", text: "\(i)"), update: .modified) } }
        }
        let total = S.bytes(url).count
        var seen: (Int, Int)?
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self], shouldCompactOnLaunch: { total, used in
                seen = (total, used)
                return used * 2 < total
            }))
            #expect(store.object(ofType: Memo.self, forPrimaryKey: 1)?.text == "99")
        }
        let (reportedTotal, used) = try #require(seen)
        #expect(reportedTotal == total)
        #expect(used < total)
        #expect(S.bytes(url).count == used)   // the compacted file is exactly the live data
        // Freshly compacted, no commit since: the file is what a compaction would write.
        var again: (Int, Int)?
        _ = try Store(configuration: .file(url: url, objectTypes: [Memo.self], shouldCompactOnLaunch: { total, used in
            again = (total, used)
            return false
        }))
        #expect(again.map { [$0.0, $0.1] } == [used, used])
    }

    @Test func aFailedAppendRollsBackAndThrows() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Self.open(url)
            try store.write { try $0.add(Memo(id: 1, topic: "a", text: "kept")) }
            let seen = FileTestBox<[[Int]]>([])
            let subscription = store.objects(Memo.self).observe(on: ImmediateScheduler.instance).subscribe(onNext: { change in
                if case .update(let results, _, _, _) = change { seen.withLock { $0.append(results.map(\.id)) } }
            })
            defer { subscription.dispose() }
            let size = S.bytes(url).count
            // The next append writes 7 bytes, then fails as a full disk would.
            let file = store.core.file!
            file.writeAppended = { [weak file] fd, bytes, offset, path in
                file?.writeAppended = { try StoreFile.writeAll($0, $1, at: $2, path: $3, in: POSIXFileSystem()) }
                try StoreFile.writeAll(fd, Array(bytes.prefix(7)), at: offset, path: path, in: POSIXFileSystem())
                throw StoreError.io(path: path, reason: "write failed: No space left on device (injected)")
            }
            #expect(throws: StoreError.self) {
                try store.write { try $0.add(Memo(id: 2, topic: "b", text: "lost")) }
            }
            #expect(S.bytes(url).count == size)   // the half-written record was cut off
            #expect(store.version == 1)
            #expect(store.object(ofType: Memo.self, forPrimaryKey: 2) == nil)
            #expect(seen.withLock { $0 }.isEmpty)   // nobody was told about the failed commit
            try store.write { try $0.add(Memo(id: 3, topic: "c", text: "after")) }
            #expect(seen.withLock { $0 } == [[1, 3]])
        }
        let store = try Self.open(url)
        #expect(store.objects(Memo.self).sorted(byKeyPath: "id").map(\.id) == [1, 3])
        #expect(store.version == 2)
    }

    @Test func concurrentWritersAllReachTheFileStress() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let threads = 4, perThread = 40
        do {
            let store = try Self.open(url)
            let group = DispatchGroup()
            let failures = FileTestBox(0)
            for t in 0..<threads {
                group.enter()
                Thread {
                    for i in 0..<perThread {
                        do {
                            try store.write { tx in
                                try tx.add(Memo(id: t * 1000 + i, topic: "thread \(t)", text: "\(i)"))
                                try tx.add(Memo(id: -1 - t, topic: "last", text: "\(i)"), update: .modified)
                            }
                        } catch {
                            failures.withLock { $0 += 1 }
                        }
                    }
                    group.leave()
                }.start()
            }
            #expect(group.wait(timeout: .now() + 120) == .success)
            #expect(failures.withLock { $0 } == 0)
        }
        let store = try Self.open(url)
        #expect(store.version == threads * perThread)
        #expect(store.objects(Memo.self).count == threads * perThread + threads)
        for t in 0..<threads {
            #expect(store.objects(Memo.self).filter("topic == %@", "thread \(t)").count == perThread)
            #expect(store.object(ofType: Memo.self, forPrimaryKey: -1 - t)?.text == "\(perThread - 1)")
        }
        #expect(store._checkInvariants())
    }

    @Test func relaxedDurabilityKeepsCommitsAcrossReopen() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Self.open(url, durability: .relaxed)
            try store.write { tx in try tx.add((0..<500).map { Memo(id: $0, topic: "bulk", text: "\($0)") }) }
        }
        #expect(try Self.open(url).objects(Memo.self).count == 500)
    }

    @Test func typesNotListedAreReadFromTheStoredSchema() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Self.open(url, [Memo.self])
            try store.write { try $0.add(Memo(id: 1, topic: "a", text: "one")) }
        }
        do {
            let store = try Store(configuration: .file(url: url))   // no objectTypes
            #expect(store.object(ofType: Memo.self, forPrimaryKey: 1)?.text == "one")
            try store.write { try $0.add(Memo(id: 2, topic: "a", text: "two")) }
            #expect(store.objects(Memo.self).filter("topic == 'a'").count == 2)
        }
        let store = try Store(configuration: .file(url: url))
        #expect(store.objects(Memo.self).map(\.text) == ["one", "two"])
    }

    @Test func anEmptyFileBecomesAStoreAndOtherFilesAreRefused() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        S.write([], to: url)
        do {
            let store = try Self.open(url)
            try store.write { try $0.add(Memo(id: 1, topic: "a", text: "x")) }
        }
        #expect(try Self.open(url).objects(Memo.self).count == 1)
        let text = Array("hello, not a store file at all\n".utf8)
        S.write(text, to: url)
        #expect(throws: StoreError.notAStoreFile(path: url.standardizedFileURL.path)) { try Self.open(url) }
        #expect(S.bytes(url) == text)
        let missingDirectory = url.deletingLastPathComponent().appendingPathComponent("no/such/dir/x.store")
        #expect { try Self.open(missingDirectory) } throws: { error in
            if case StoreError.io = error { return true } else { return false }
        }
    }

    @Test func inMemoryCompactDoesNothing() throws {
        let store = Store()
        try store.write { try $0.add(Memo(id: 1, topic: "a", text: "x")) }
        try store.compact()
        #expect(store.objects(Memo.self).count == 1)
    }
}

/// A value shared between test threads.
final class FileTestBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
