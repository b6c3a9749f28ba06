import Foundation
import GRDB
import ObjectStore

// The long-running writer (issue 29): a fresh process opens a file of N pizzas and rewrites
// every one once, in `transactions` transactions of N / `transactions`, each committed with
// full durability (ours `.full`, the default; GRDB `synchronous = FULL`, one
// `INSERT OR REPLACE` per pizza). What it reports: the total and the worst commit, the resident
// memory after the open and after the rewrite (and its peak), and the file's size: the largest
// it reached while the rewrite ran, at the end, and the live data (ours: a compacted copy's
// size, what `writeCopy(toFile:)` writes; GRDB: page size × pages in use).

struct RewriteFigures {
    var flavour: String
    var count = 0
    var transactions = 0
    var seconds = 0.0
    var worstCommit = 0.0
    var rssAfterOpenKiB = 0
    var rssKiB = 0
    var peakKiB = 0
    var largestFile = 0
    var finalFile = 0
    var liveBytes = 0

    var json: String {
        #"{"step": "rewrite", "flavour": "\#(flavour)", "count": \#(count), "transactions": \#(transactions), "seconds": \#(seconds), "worstCommit": \#(worstCommit), "#
            + #""rssAfterOpenKiB": \#(rssAfterOpenKiB), "rssKiB": \#(rssKiB), "peakKiB": \#(peakKiB), "#
            + #""largestFile": \#(largestFile), "finalFile": \#(finalFile), "liveBytes": \#(liveBytes)}"#
    }
}

/// Rewrites every pizza of the file at `path` once (prices + 1) and measures it.
func rewriteAll(_ flavour: String, path: String, transactions: Int) throws -> RewriteFigures {
    var figures = RewriteFigures(flavour: flavour, transactions: transactions)
    switch flavour {
    case "ours":
        let store = try Store(configuration: .file(url: URL(fileURLWithPath: path)))
        figures.count = store.objects(Pizza.self).count
        try timeCommits(path: path, into: &figures) { pizzas in
            try store.write { tx in try tx.add(pizzas, update: .modified) }
        }
        let copy = URL(fileURLWithPath: path + ".live-\(getpid())")
        try store.writeCopy(toFile: copy)
        figures.liveBytes = (try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? Int) ?? 0
        try? FileManager.default.removeItem(at: copy)
    case "grdb":
        var configuration = GRDB.Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        figures.count = try queue.read { try PizzaRecord.fetchCount($0) }
        try timeCommits(path: path, into: &figures) { pizzas in
            try queue.write { db in
                for pizza in pizzas {
                    try PizzaRecord(id: pizza.id, name: pizza.name, price: pizza.price).insert(db, onConflict: .replace)
                }
            }
        }
        figures.liveBytes = try queue.read { db in
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            return pageSize * (pages - free)
        }
    default:
        throw ProbeError.usage("rewrite \(flavour)")
    }
    return figures
}

/// Commits each transaction's pizzas (new prices) with `commit`, timing each commit and
/// watching the file's size; then the resident memory (after the open, and now).
private func timeCommits(path: String, into figures: inout RewriteFigures, _ commit: ([Pizza]) throws -> Void) throws {
    func fileSize() -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
    figures.rssAfterOpenKiB = residentMemory().current
    let batch = figures.count / figures.transactions
    let start = DispatchTime.now().uptimeNanoseconds
    for t in 0..<figures.transactions {
        let pizzas = rewriteBatch(t, of: batch)
        let began = DispatchTime.now().uptimeNanoseconds
        try commit(pizzas)
        figures.worstCommit = max(figures.worstCommit, Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
        figures.largestFile = max(figures.largestFile, fileSize())
    }
    figures.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let memory = residentMemory()
    (figures.rssKiB, figures.peakKiB) = (memory.current, memory.peak)
    figures.finalFile = fileSize()
}
