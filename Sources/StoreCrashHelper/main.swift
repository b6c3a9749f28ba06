// A process the file store's crash tests kill with SIGKILL at random moments.
//
//   StoreCrashHelper <file> [full|relaxed]   commit numbered transactions until killed
//   StoreCrashHelper <file> hold             open the store, print "opened", wait (lock tests)
//
// Each transaction N (continuing after the last one in the file) adds five `Entry` objects of
// batch N, rewrites one entry of batch N-1 and sets the `Progress` object to N, so a partly
// applied transaction would show. After `write` returns it prints "committed N" (flushed).
// Automatic compaction is set low and every 40th commit compacts, so kills also land during
// compactions.
import Foundation
import ObjectStore

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
    while true {
        let batch = n
        try store.write { tx in
            for k in 0..<5 {
                try tx.add(Entry(id: "\(batch)-\(k)", batch: batch, payload: String(repeating: "x", count: 10 + (batch * 7 + k) % 40)))
            }
            if batch > 1 { try tx.add(Entry(id: "\(batch - 1)-0", batch: batch - 1, payload: "rewritten by \(batch)"), update: .modified) }
            try tx.add(Progress(id: 0, last: batch), update: .modified)
        }
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
