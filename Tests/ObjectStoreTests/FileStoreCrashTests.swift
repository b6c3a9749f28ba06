import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Kills a process that commits in a loop (Sources/StoreCrashHelper) with SIGKILL at random
/// moments, reopens the file each time and checks it holds exactly a prefix of the commits:
/// every commit the helper reported, at most one more, and never part of one.
@Suite(.resourceCheck, .startsProcesses) struct FileStoreCrashTests {
    /// The built helper: next to the test bundle (any scratch path), or in .build/debug.
    static func helperURL() -> URL? {
        let fm = FileManager.default
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["REACTIVEMVVM_CRASH_HELPER"] {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        var dirs: [URL] = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                           Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            dirs.append(bundle.bundleURL.deletingLastPathComponent())
        }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {   // inside an .xctest bundle on Apple platforms: walk up
            dirs.append(dir)
            dir = dir.deletingLastPathComponent()
        }
        dirs.append(URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent(".build/debug"))
        candidates += dirs.map { $0.appendingPathComponent("StoreCrashHelper") }
        return candidates.first { fm.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the helper until `delay`, then SIGKILLs it; returns the commits it reported.
    static func runAndKill(_ helper: URL, file: URL, mode: String, delay: Double) throws -> [Int] {
        let pipe = Pipe()
        let process = try ChildProcess(helper, arguments: [file.path, mode], output: pipe, discardingStandardError: true)
        let pid = process.processIdentifier
        // Wait for the first commit (startup includes reopening the file), then a bit more.
        let handle = pipe.fileHandleForReading
        let reader = OutputReader(handle)
        reader.waitForFirstLine(timeout: 30)
        usleep(useconds_t(delay * 1_000_000))
        kill(pid, SIGKILL)
        process.waitUntilExit()
        let lines = reader.finish()
        var committed: [Int] = []
        for line in lines {
            if line.hasPrefix("error") { throw StoreError.io(path: file.path, reason: "helper: \(line)") }
            if line.hasPrefix("committed "), let n = Int(line.dropFirst(10)) { committed.append(n) }
        }
        return committed
    }

    @Test func killedWriterLeavesExactlyAPrefixOfItsCommits() throws {
        let helper = try #require(Self.helperURL(), "StoreCrashHelper not found next to the tests; set REACTIVEMVVM_CRASH_HELPER")
        let kills = Int(ProcessInfo.processInfo.environment["REACTIVEMVVM_CRASH_KILLS"] ?? "") ?? 30
        let url = FileStoreSupport.temporaryFile("crash.store")
        defer { FileStoreSupport.cleanUp(url) }
        var generator = SystemRandomNumberGenerator()
        var reported = 0          // the highest commit any run reported
        var killsWithCommits = 0
        for round in 0..<kills {
            let mode = round % 5 == 4 ? "relaxed" : "full"
            let committed = try Self.runAndKill(helper, file: url, mode: mode, delay: Double.random(in: 0.0...0.25, using: &generator))
            if let last = committed.last, last > reported {
                #expect(committed == Array((reported + 1)...last), "round \(round): commits reported out of order")
                reported = last
                killsWithCommits += 1
            }
            // Reopen in this process and check the prefix property.
            let last = try Self.checkPrefix(url, reportedAtLeast: reported)
            #expect(last >= reported && last <= reported + 1, "round \(round): file holds \(last), helper reported \(reported)")
            reported = last
        }
        #expect(killsWithCommits > kills / 2, "most runs should commit before the kill")
    }

    /// The same with the writes queued through `writeAsync` and `await store.write` (up to
    /// four at a time): the file holds every commit reported, at most the four queued ones
    /// more, and never part of one.
    @Test func killedAsynchronousWriterLeavesExactlyAPrefixOfItsCommits() throws {
        let helper = try #require(Self.helperURL(), "StoreCrashHelper not found next to the tests; set REACTIVEMVVM_CRASH_HELPER")
        let kills = Int(ProcessInfo.processInfo.environment["REACTIVEMVVM_CRASH_KILLS"] ?? "") ?? 30
        let url = FileStoreSupport.temporaryFile("crash-async.store")
        defer { FileStoreSupport.cleanUp(url) }
        var generator = SystemRandomNumberGenerator()
        var reported = 0
        var killsWithCommits = 0
        for round in 0..<kills {
            let committed = try Self.runAndKill(helper, file: url, mode: "async", delay: Double.random(in: 0.0...0.25, using: &generator))
            if let last = committed.last, last > reported {
                #expect(committed == Array((reported + 1)...last), "round \(round): commits reported out of order")
                reported = last
                killsWithCommits += 1
            }
            let last = try Self.checkPrefix(url, reportedAtLeast: reported)
            #expect(last >= reported && last <= reported + 4, "round \(round): file holds \(last), helper reported \(reported)")
            reported = last
        }
        #expect(killsWithCommits > kills / 2, "most runs should commit before the kill")
    }

    /// Opens the file and checks: Progress.last = L; batches 1…L have exactly their 5 entries;
    /// no entry of a later batch; entry N-0 was rewritten by N+1 exactly when N+1 ≤ L.
    /// - Returns: L.
    static func checkPrefix(_ url: URL, reportedAtLeast reported: Int) throws -> Int {
        let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self, Progress.self]))
        let last = store.object(ofType: Progress.self, forPrimaryKey: 0)?.last ?? 0
        let entries = store.objects(Entry.self)
        #expect(entries.count == 5 * last, "\(entries.count) entries for \(last) commits")
        var perBatch: [Int: Int] = [:]
        for entry in entries {
            perBatch[entry.batch, default: 0] += 1
            if entry.id.hasSuffix("-0") && entry.batch < last {
                #expect(entry.payload == "rewritten by \(entry.batch + 1)")
            }
        }
        #expect(perBatch.keys.allSatisfy { $0 >= 1 && $0 <= last })
        #expect(perBatch.values.allSatisfy { $0 == 5 })
        #expect(store._checkInvariants())
        #expect(store.version >= last)
        return last
    }
}

/// Collects a child's stdout lines on a background thread.
final class OutputReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer = Data()
    private var done = false

    init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty { done = true } else { buffer.append(chunk) }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { break }
            }
        }.start()
    }

    func waitForFirstLine(timeout: Double) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while !done && !buffer.contains(UInt8(ascii: "\n")) {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    /// Waits for end of file (the child is dead) and returns the whole lines.
    func finish(timeout: Double = 30) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while !done { if !condition.wait(until: deadline) { break } }
        let text = String(decoding: buffer, as: UTF8.self)
        condition.unlock()
        // A line cut by the kill has no newline: ignore it.
        var lines = text.components(separatedBy: "\n")
        lines.removeLast()
        return lines
    }
}
