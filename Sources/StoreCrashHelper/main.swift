// A process the file store's crash tests kill with SIGKILL at random moments.
//
//   StoreCrashHelper <file> [full|relaxed]   commit numbered transactions until killed
//   StoreCrashHelper <file> async            the same through `writeAsync` (up to four queued)
//                                            and `await store.asyncWrite`
//   StoreCrashHelper <file> hold             open the store, print "opened", wait (lock tests)
//   StoreCrashHelper <file|:memory:> memory <commits> [observe]
//                                            rewrite one object <commits> times and print the
//                                            resident memory after a warm-up and at the end as
//                                            "rss <kB> <kB>" (the memory tests; a process of its
//                                            own, so other tests' allocations do not count)
//
// Each transaction N (continuing after the last one in the file) adds five `Entry` objects of
// batch N, rewrites one entry of batch N-1 and sets the `Progress` object to N, so a partly
// applied transaction would show. After `write` returns it prints "committed N" (flushed).
// Automatic compaction is set low and every 40th commit compacts, so kills also land during
// compactions.
import Foundation
import ObjectStore
import Streams

struct Entry: StoreObject {
    static var primaryKey: KeyPath<Entry, String> { \.id }
    var id: String
    var batch: Int
    var payload: String
}

struct Progress: StoreObject {
    static var primaryKey: KeyPath<Progress, Int> { \.id }
    var id: Int
    var last: Int
}

/// Writes a line to stdout at once (one unbuffered `write`).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: StoreCrashHelper <file> [full|relaxed|hold]\n".utf8))
    exit(2)
}
let mode = arguments.count > 2 ? arguments[2] : "full"
if mode == "memory" {
    runMemoryMode(path: arguments[1], commits: arguments.count > 3 ? Int(arguments[3]) ?? 200_000 : 200_000,
                  observe: arguments.count > 4 && arguments[4] == "observe")
    exit(0)
}
let configuration = Store.Configuration.file(
    url: URL(fileURLWithPath: arguments[1]),
    objectTypes: [Entry.self, Progress.self],
    durability: mode == "relaxed" ? .relaxed : .full,
    autoCompaction: Store.AutoCompaction(logMultiple: 2, minimumBytes: 48 << 10))
do {
    let store = try Store(configuration: configuration)
    if mode == "hold" {
        say("opened")
        while true { sleep(60) }
    }
    var n = (store.object(ofType: Progress.self, forPrimaryKey: 0)?.last ?? 0) + 1
    if mode == "async" { try runAsyncMode(store, from: n) }
    while true {
        let batch = n
        try store.write { tx in try commit(batch, tx) }
        say("committed \(batch)")
        // Compact often too (explicitly, besides the automatic compaction), so kills land
        // during compactions as well as during commits.
        if batch % 40 == 0 { try store.compact() }
        n += 1
    }
} catch {
    say("error \(error)")
    exit(1)
}

/// Transaction `batch`: five new entries, a rewrite of one entry of the batch before, and the
/// progress marker.
@Sendable func commit(_ batch: Int, _ tx: Transaction) throws {
    for k in 0..<5 {
        try tx.add(Entry(id: "\(batch)-\(k)", batch: batch, payload: String(repeating: "x", count: 10 + (batch * 7 + k) % 40)))
    }
    if batch > 1 { try tx.add(Entry(id: "\(batch - 1)-0", batch: batch - 1, payload: "rewritten by \(batch)"), update: .modified) }
    try tx.add(Progress(id: 0, last: batch), update: .modified)
}

/// Commits the numbered transactions off the main thread: even ones with `writeAsync` (up to
/// four queued at a time), odd ones with `await store.asyncWrite` awaited before the next is asked
/// for, so that they run in order; compacts every 40th from this thread.
func runAsyncMode(_ store: Store, from first: Int) throws -> Never {
    let slots = DispatchSemaphore(value: 4)
    var batch = first
    while true {
        let n = batch
        if n % 2 == 0 {
            slots.wait()
            store.writeAsync({ tx in try commit(n, tx) }, on: ImmediateScheduler.instance) { error in
                if let error { say("error \(error)"); exit(1) }
                say("committed \(n)")
                slots.signal()
            }
        } else {
            let done = DispatchSemaphore(value: 0)
            Task {
                do {
                    try await store.asyncWrite { tx in try commit(n, tx) }
                    say("committed \(n)")
                } catch {
                    say("error \(error)")
                    exit(1)
                }
                done.signal()
            }
            done.wait()
        }
        if n % 40 == 0 { try store.compact() }
        batch += 1
    }
}

/// The process's resident memory in kB (`VmRSS` on Linux, `task_info` on Apple platforms).
func residentKilobytes() -> Int {
    #if os(Linux)
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? -1
    }
    return -1
    #elseif canImport(Darwin)
    // This task's port, from `task_self_trap()`, where `mach_task_self_` gets its value at
    // start-up: that C global is mutable shared state to Swift 6 in SDKs before macOS 15.4
    // (an error), and `mach_task_self()` is a C macro Swift does not import. (Each call adds a
    // reference to the port; this process asks twice.)
    let task = task_self_trap()
    var info = mach_task_basic_info()
    var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
    let result = withUnsafeMutablePointer(to: &info) {
        $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) { task_info(task, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count) }
    }
    return result == KERN_SUCCESS ? Int(info.resident_size) / 1024 : -1
    #else
    return -1
    #endif
}

/// Rewrites one `Progress` object `commits` times (after a warm-up of a tenth as many) and
/// prints the resident memory before and after, optionally with a live `Results` observer.
func runMemoryMode(path: String, commits: Int, observe: Bool) {
    do {
        let configuration: Store.Configuration = path == ":memory:"
            ? .inMemory(identifier: "memory-\(getpid())", objectTypes: [Entry.self, Progress.self])
            : .file(url: URL(fileURLWithPath: path), objectTypes: [Entry.self, Progress.self], durability: .relaxed)
        let store = try Store(configuration: configuration)
        var delivered = 0
        let subscription = observe
            ? store.objects(Progress.self).observe(on: CurrentThreadScheduler.instance).subscribe(onNext: { _ in delivered += 1 })
            : nil
        let warmUp = max(1, commits / 10)
        var n = 0
        func rewrite(times: Int) throws {
            for _ in 0..<times {
                n += 1
                let value = n
                try store.write { tx in try tx.add(Progress(id: 0, last: value), update: .modified) }
            }
        }
        try rewrite(times: warmUp)
        let before = residentKilobytes()
        try rewrite(times: commits)
        let after = residentKilobytes()
        subscription?.dispose()
        if observe && delivered < commits { say("error the observer saw \(delivered) of \(commits + warmUp) commits"); exit(1) }
        say("rss \(before) \(after)")
    } catch {
        say("error \(error)")
        exit(1)
    }
}
