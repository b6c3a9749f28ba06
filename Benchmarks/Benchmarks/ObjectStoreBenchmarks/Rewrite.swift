import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import ObjectStore

// The long-running writer (issue 29): open a file of `rewriteCount` pizzas, then rewrite every
// one once (a new price) in `rewriteTransactions` transactions, each committed with full
// durability: ours `.full` (one fdatasync per commit), GRDB `synchronous = FULL` (SQLite's
// default rollback journal) with one `INSERT OR REPLACE` per pizza. The file is filled once per
// flavour and copied before each iteration, outside the measurement. The resident memory and
// the file's size during the same rewrite are the scale probe's `rewrite` step (RewriteProbe.swift).

let rewriteCount = isSmoke ? 2_000 : 1_000_000
let rewriteTransactions = isSmoke ? 20 : 1_000

/// A filled file per flavour, made on first use.
nonisolated(unsafe) private var rewriteTemplates: [String: URL] = [:]

private func rewriteTemplate(_ flavour: Flavor) throws -> URL {
    if let url = rewriteTemplates[flavour.rawValue] { return url }
    let url = try temporaryFolder().appendingPathComponent("template-\(flavour.rawValue)")
    let pizzas = makePizzas(rewriteCount)
    if flavour == .ours {
        let store = try Store(configuration: .file(url: url, durability: .relaxed))
        try store.write { tx in try tx.add(pizzas, update: .modified) }
    } else {
        _ = try grdbQueue(pizzas, path: url.path)
    }
    rewriteTemplates[flavour.rawValue] = url
    return url
}

/// A fresh copy of the flavour's filled file, in a folder of its own.
private func rewriteCopy(_ flavour: Flavor) throws -> (folder: URL, file: URL) {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("rewrite")
    try FileManager.default.copyItem(at: try rewriteTemplate(flavour), to: file)
    return (folder, file)
}

/// The pizzas of transaction `t` (of `batch` each), with new prices.
func rewriteBatch(_ t: Int, of batch: Int = rewriteCount / rewriteTransactions) -> [Pizza] {
    var pizzas = makePizzas(batch, from: 1 + t * batch)
    for i in pizzas.indices { pizzas[i].price += 1 }
    return pizzas
}

func registerRewriteBenchmarks() {
    let name = "Rewrite \(rewriteCount) objects in \(rewriteTransactions) transactions on disk, full durability"

    scenario(name, .ours, operations: rewriteTransactions) { benchmark in
        let (folder, file) = try rewriteCopy(.ours)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store(configuration: .file(url: file))
        precondition(store.objects(Pizza.self).count == rewriteCount)
        benchmark.startMeasurement()
        for t in 0..<rewriteTransactions {
            let pizzas = rewriteBatch(t)
            try store.write { tx in try tx.add(pizzas, update: .modified) }
        }
        benchmark.stopMeasurement()
        precondition(store.object(ofType: Pizza.self, forPrimaryKey: rewriteCount)?.price == makePizzas(1, from: rewriteCount)[0].price + 1)
    }

    scenario(name, .grdb, operations: rewriteTransactions) { benchmark in
        let (folder, file) = try rewriteCopy(.grdb)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = GRDB.Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        let stored = try queue.read { try PizzaRecord.fetchCount($0) }
        precondition(stored == rewriteCount)
        benchmark.startMeasurement()
        for t in 0..<rewriteTransactions {
            let pizzas = rewriteBatch(t)
            try queue.write { db in
                for pizza in pizzas {
                    try PizzaRecord(id: pizza.id, name: pizza.name, price: pizza.price).insert(db, onConflict: .replace)
                }
            }
        }
        benchmark.stopMeasurement()
        let last = try queue.read { try PizzaRecord.fetchOne($0, key: rewriteCount) }
        precondition(last?.price == makePizzas(1, from: rewriteCount)[0].price + 1)
    }
}
