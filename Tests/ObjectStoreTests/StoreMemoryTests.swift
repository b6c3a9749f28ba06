import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// A store that is written to forever must not grow forever: rewriting one object 200,000 times
/// (in a process of its own, Sources/StoreCrashHelper, so no other test's allocations count)
/// leaves the resident memory where the warm-up left it, give or take allocator slack.
@Suite(.resourceCheck, .startsProcesses) struct StoreMemoryTests {
    /// What the store may keep per commit, at most, summed over the 200,000 commits: 4 MiB is
    /// about 20 bytes a commit (keeping each commit's change records cost about 210).
    static let boundKilobytes = 4 * 1024

    @Test(arguments: [(StoreBackend.memory, false), (.memory, true), (.file, false), (.file, true)])
    func rewritingOneObjectKeepsMemoryFlat(backend: StoreBackend, observe: Bool) throws {
        let helper = try #require(FileStoreCrashTests.helperURL(), "StoreCrashHelper not found next to the tests; set REACTIVEMVVM_CRASH_HELPER")
        let url = FileStoreSupport.temporaryFile("memory.store")
        defer { FileStoreSupport.cleanUp(url) }
        let pipe = Pipe()
        let reader = OutputReader(pipe.fileHandleForReading)
        let process = try ChildProcess(helper, arguments: [backend == .memory ? ":memory:" : url.path, "memory", "200000"] + (observe ? ["observe"] : []),
                                       output: pipe)
        let lines = reader.finish(timeout: 300)
        process.waitUntilExit()
        let line = try #require(lines.first { $0.hasPrefix("rss ") }, "the helper printed \(lines)")
        let figures = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        try #require(figures.count == 2 && figures.allSatisfy { $0 > 0 }, "unreadable \(line)")
        let growth = figures[1] - figures[0]
        #expect(growth <= Self.boundKilobytes,
                "resident memory grew by \(growth) kB over 200,000 commits (\(backend), observer: \(observe))")
    }
}
