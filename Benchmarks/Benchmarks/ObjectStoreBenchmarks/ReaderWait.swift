import Foundation
import GRDB
import ObjectStore

// The reader-wait probe: how long a reading thread waits while another thread commits large
// transactions (issue 29: a reader must never wait more than a frame, 16 ms). `run.sh` runs
// this executable with STORE_READER_PROBE set, once per step, instead of the benchmarks:
//
//     STORE_READER_PROBE="write ours 1000000 /tmp/x.store"   fills a file of notes
//     STORE_READER_PROBE="readers ours /tmp/x.store 100000"   opens it; one thread reads while
//                                                             another commits 5 × 100,000 updates
//     STORE_READER_PROBE="open ours /tmp/x.store"             opens it and counts the notes
//     STORE_READER_PROBE="in-process ours /tmp/x.store 1000000 100000"
//                                                             fills and rewrites in one process
//                                                             (ReaderWaitInProcess.swift)
//
// (`grdb` in place of `ours`: GRDB's `DatabasePool`, in WAL mode, its default configuration.) The
// reading thread takes turns: an object by primary key, the count, a query by primary key; it
// times each read and reports the slowest. One line of JSON per step.

/// A richer model than the pizza: a string, a double, a date, an optional int, two links.
struct Note: StoreObject {
    static var primaryKey: KeyPath<Note, Int> { \.id }
    var id: Int
    var summary: String
    var score: Double
    var created: Date
    var rank: Int?
    var owner: Category?
    var editor: Category?
}

struct NoteRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "note"
    var id: Int
    var summary: String
    var score: Double
    var created: Date
    var rank: Int?
    var ownerId: Int?
    var editorId: Int?
}

/// Note `id` as written in generation `generation` (each commit rewrites with the next).
func makeNote(_ id: Int, generation: Int) -> Note {
    Note(id: id, summary: "note \(id), revision \(generation): \(syllables[id % syllables.count])",
         score: Double(id) / 7 + Double(generation), created: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)),
         rank: id % 3 == 0 ? nil : id % 1_000, owner: categories[id % categories.count],
         editor: categories[(id + generation) % categories.count])
}

func noteRecord(_ note: Note) -> NoteRecord {
    NoteRecord(id: note.id, summary: note.summary, score: note.score, created: note.created, rank: note.rank,
               ownerId: note.owner?.id, editorId: note.editor?.id)
}

/// Runs the reader-probe step named by STORE_READER_PROBE and exits, if it is set.
func runReaderProbeIfAsked() {
    guard let command = ProcessInfo.processInfo.environment["STORE_READER_PROBE"] else { return }
    let words = command.split(separator: " ").map(String.init)
    do {
        guard words.count >= 3 else { throw ProbeError.usage(command) }
        switch (words[0], words[1]) {
        case ("write", "ours"):
            guard words.count == 4, let total = Int(words[2]) else { throw ProbeError.usage(command) }
            let store = try Store(configuration: .file(url: URL(fileURLWithPath: words[3]), durability: .relaxed))
            try store.write { tx in try tx.add((1...total).map { makeNote($0, generation: 0) }, update: .modified) }
            try store.compact()
        case ("write", "grdb"):
            guard words.count == 4, let total = Int(words[2]) else { throw ProbeError.usage(command) }
            let pool = try DatabasePool(path: words[3])
            try pool.write { db in
                try db.create(table: "category") { t in
                    t.primaryKey("id", .integer)
                    t.column("name", .text).notNull()
                }
                try db.create(table: "note") { t in
                    t.primaryKey("id", .integer)
                    t.column("summary", .text).notNull()
                    t.column("score", .double).notNull()
                    t.column("created", .datetime).notNull()
                    t.column("rank", .integer)
                    t.column("ownerId", .integer).references("category")
                    t.column("editorId", .integer).references("category")
                }
                for category in categories { try category.insert(db) }
                for id in 1...total { try noteRecord(makeNote(id, generation: 0)).insert(db) }
            }
        case ("open", "ours"):
            // Issue 29's "open and count" of the richer model, in a fresh process.
            let start = DispatchTime.now().uptimeNanoseconds
            let count = try Store(configuration: .file(url: URL(fileURLWithPath: words[2]))).objects(Note.self).count
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print(#"{"step": "open-notes", "flavour": "ours", "count": \#(count), "seconds": \#(seconds)}"#)
        case ("open", "grdb"):
            let start = DispatchTime.now().uptimeNanoseconds
            let count = try DatabaseQueue(path: words[2]).read { try NoteRecord.fetchCount($0) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print(#"{"step": "open-notes", "flavour": "grdb", "count": \#(count), "seconds": \#(seconds)}"#)
        case ("in-process", let flavour):
            guard words.count == 5, let count = Int(words[3]), let perCommit = Int(words[4]) else { throw ProbeError.usage(command) }
            print(try inProcessReadersStep(flavour: flavour, path: words[2], count: count, perCommit: perCommit))
        case ("readers", let flavour):
            guard words.count == 4, let perCommit = Int(words[3]) else { throw ProbeError.usage(command) }
            print(try readersStep(flavour: flavour, path: words[2], perCommit: perCommit))
        default:
            throw ProbeError.usage(command)
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("reader probe: \(error)\n".utf8))
        exit(1)
    }
}

/// Commits 5 × `perCommit` updates on this thread while another reads; the line of JSON to print.
private func readersStep(flavour: String, path: String, perCommit: Int) throws -> String {
    let commits = 5
    let read: (Int, Int) throws -> Void
    let write: (Int, Int) throws -> Void
    let total: Int
    if flavour == "ours" {
        let store = try Store(configuration: .file(url: URL(fileURLWithPath: path)))
        total = store.objects(Note.self).count
        read = { turn, key in
            switch turn % 3 {
            case 0: guard store.object(ofType: Note.self, forPrimaryKey: key) != nil else { throw ProbeError.missing(key) }
            case 1: guard store.objects(Note.self).count == total else { throw ProbeError.missing(key) }
            default: guard store.objects(Note.self).filter("id == %@", key).count == 1 else { throw ProbeError.missing(key) }
            }
        }
        write = { generation, first in
            try store.write { tx in
                try tx.add((0..<perCommit).map { makeNote((first + $0) % total + 1, generation: generation) }, update: .modified)
            }
        }
    } else {
        let pool = try DatabasePool(path: path)
        total = try pool.read { try NoteRecord.fetchCount($0) }
        read = { turn, key in
            let found = try pool.read { db -> Bool in
                switch turn % 3 {
                case 0: return try NoteRecord.fetchOne(db, key: key) != nil
                case 1: return try NoteRecord.fetchCount(db) == total
                default: return try NoteRecord.filter(Column("id") == key).fetchCount(db) == 1
                }
            }
            guard found else { throw ProbeError.missing(key) }
        }
        write = { generation, first in
            try pool.write { db in
                for i in 0..<perCommit { try noteRecord(makeNote((first + i) % total + 1, generation: generation)).update(db) }
            }
        }
    }
    let reader = ReaderThread(total: total, read: read)
    reader.start()
    var commitSeconds: [Double] = []
    for generation in 1...commits {
        let start = DispatchTime.now().uptimeNanoseconds
        try write(generation, generation * (perCommit + perCommit / 2))
        commitSeconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let (reads, worst, overAFrame, failure) = reader.finish()
    if let failure { throw failure }
    let ms = worst.map { Double($0) / 1e6 }
    return #"{"step": "readers", "flavour": "\#(flavour)", "count": \#(total), "perCommit": \#(perCommit), "reads": \#(reads), "readsOverAFrame": \#(overAFrame), "#
        + #""worstReadMs": \#(ms.max()!), "worstKeyMs": \#(ms[0]), "worstCountMs": \#(ms[1]), "worstQueryMs": \#(ms[2]), "#
        + #""slowestCommitSeconds": \#(commitSeconds.max()!)}"#
}

/// The reading thread: reads in turn until told to stop, timing each read; the worst wait of
/// each kind of read (by key, count, query) is kept apart, and the reads that waited more than
/// a frame (16 ms) are counted.
private final class ReaderThread: @unchecked Sendable {
    private let lock = NSLock()
    private let stopped = DispatchSemaphore(value: 0)
    private var stop = false
    private var reads = 0
    private var worst: [UInt64] = [0, 0, 0]
    private var overAFrame = 0
    private var failure: Error?
    private let total: Int
    private let read: (Int, Int) throws -> Void

    init(total: Int, read: @escaping (Int, Int) throws -> Void) {
        self.total = total
        self.read = read
    }

    func start() {
        Thread { [self] in
            var turn = 0, worst: [UInt64] = [0, 0, 0], overAFrame = 0
            do {
                while !lock.withLock({ stop }) {
                    let begin = DispatchTime.now().uptimeNanoseconds
                    try read(turn, (turn * 7_919) % total + 1)
                    let waited = DispatchTime.now().uptimeNanoseconds - begin
                    worst[turn % 3] = max(worst[turn % 3], waited)
                    if waited > 16_000_000 { overAFrame += 1 }
                    turn += 1
                }
            } catch {
                lock.withLock { failure = error }
            }
            lock.withLock { (reads, self.worst, self.overAFrame) = (turn, worst, overAFrame) }
            stopped.signal()
        }.start()
    }

    func finish() -> (reads: Int, worst: [UInt64], overAFrame: Int, failure: Error?) {
        lock.withLock { stop = true }
        stopped.wait()
        return lock.withLock { (reads, worst, overAFrame, failure) }
    }
}
