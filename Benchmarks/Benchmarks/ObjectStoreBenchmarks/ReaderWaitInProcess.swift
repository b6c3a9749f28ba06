import Foundation
import GRDB
import ObjectStore

// The reader-wait probe's in-process step (issue 43): the workload the file-at-rest step
// (`readers`) leaves out. One process fills a file with COUNT pizzas (a to-many link to their
// categories) in one transaction, then, with the same store, one thread commits 5 transactions
// that each rewrite PER_COMMIT pizzas (name, price and categories) while another thread reads
// pizzas by primary key, timing each read:
//
//     STORE_READER_PROBE="in-process ours /tmp/x.store 1000000 100000"
//
// (`grdb`: GRDB's `DatabasePool`, WAL, its default configuration; the categories in a join
// table, a read fetching the pizza and its categories in one `read`.) The reader starts once
// the fill is committed and stops once the last rewrite is; it reports its worst read and the
// 99th and 99.9th percentiles. One line of JSON.

/// Pizza `id` as rewritten in generation `generation`: another name, price and categories.
func rewrittenPizza(_ id: Int, generation: Int) -> Pizza {
    var links = [categories[(id + generation) % categories.count]]
    if (id + generation) % 2 == 0 { links.append(categories[(id + generation + 3) % categories.count]) }
    return Pizza(id: id, name: "\(syllables[(id + generation) % syllables.count]) \(generation)",
                 price: 500 + (id * 7919 + generation) % 2000, categories: links)
}

/// Fills `path` with `count` pizzas, then reads by key on one thread while this one commits 5
/// rewrites of `perCommit` pizzas each; the line of JSON to print.
func inProcessReadersStep(flavour: String, path: String, count: Int, perCommit: Int) throws -> String {
    let commits = 5
    let read: (Int) throws -> Void
    let write: (Int, Int) throws -> Void
    let fillStart = DispatchTime.now().uptimeNanoseconds
    if flavour == "ours" {
        let store = try Store(configuration: .file(url: URL(fileURLWithPath: path)))
        try store.write { tx in try tx.add(makePizzas(count), update: .modified) }
        read = { key in
            guard let pizza = store.object(ofType: Pizza.self, forPrimaryKey: key), !pizza.categories.isEmpty else {
                throw ProbeError.missing(key)
            }
        }
        write = { generation, first in
            try store.write { tx in
                try tx.add((0..<perCommit).map { rewrittenPizza((first + $0) % count + 1, generation: generation) }, update: .modified)
            }
        }
    } else {
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try createSchema(db)
            for category in categories { try category.insert(db) }
            try insert(makePizzas(count), into: db)
        }
        read = { key in
            let found = try pool.read { db -> Bool in
                guard try PizzaRecord.fetchOne(db, key: key) != nil else { return false }
                let links = try Category.fetchAll(db, sql: """
                    SELECT category.* FROM category JOIN pizzaCategory ON pizzaCategory.categoryId = category.id
                    WHERE pizzaCategory.pizzaId = ?
                    """, arguments: [key])
                return !links.isEmpty
            }
            guard found else { throw ProbeError.missing(key) }
        }
        write = { generation, first in
            try pool.write { db in
                for i in 0..<perCommit {
                    let pizza = rewrittenPizza((first + i) % count + 1, generation: generation)
                    try PizzaRecord(id: pizza.id, name: pizza.name, price: pizza.price).update(db)
                    try db.execute(sql: "DELETE FROM pizzaCategory WHERE pizzaId = ?", arguments: [pizza.id])
                    for category in pizza.categories {
                        try PizzaCategory(pizzaId: pizza.id, categoryId: category.id).insert(db)
                    }
                }
            }
        }
    }
    let fillSeconds = Double(DispatchTime.now().uptimeNanoseconds - fillStart) / 1e9
    let reader = KeyReaderThread(total: count, read: read)
    reader.start()
    var commitSeconds: [Double] = []
    for generation in 1...commits {
        let start = DispatchTime.now().uptimeNanoseconds
        try write(generation, generation * (perCommit + perCommit / 2))
        commitSeconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    var (waits, failure) = reader.finish()
    if let failure { throw failure }
    waits.sort()
    let ms = { (fraction: Double) -> Double in
        Double(waits[min(waits.count - 1, Int(Double(waits.count) * fraction))]) / 1e6
    }
    let overAFrame = waits.count - (waits.firstIndex { $0 > 16_000_000 } ?? waits.count)
    return #"{"step": "readers-in-process", "flavour": "\#(flavour)", "count": \#(count), "perCommit": \#(perCommit), "#
        + #""reads": \#(waits.count), "readsOverAFrame": \#(overAFrame), "worstReadMs": \#(Double(waits.last!) / 1e6), "#
        + #""p99ReadMs": \#(ms(0.99)), "p999ReadMs": \#(ms(0.999)), "fillSeconds": \#(fillSeconds), "#
        + #""slowestCommitSeconds": \#(commitSeconds.max()!)}"#
}

/// The reading thread of the in-process step: reads by primary key, in turn, until told to
/// stop, and keeps every read's wait (nanoseconds).
private final class KeyReaderThread: @unchecked Sendable {
    private let lock = NSLock()
    private let stopped = DispatchSemaphore(value: 0)
    private var stop = false
    private var waits: [UInt64] = []
    private var failure: Error?
    private let total: Int
    private let read: (Int) throws -> Void

    init(total: Int, read: @escaping (Int) throws -> Void) {
        self.total = total
        self.read = read
    }

    func start() {
        Thread { [self] in
            var turn = 0
            var waits: [UInt64] = []
            waits.reserveCapacity(1 << 22)
            do {
                while !lock.withLock({ stop }) {
                    let begin = DispatchTime.now().uptimeNanoseconds
                    try read((turn * 7_919) % total + 1)
                    waits.append(DispatchTime.now().uptimeNanoseconds - begin)
                    turn += 1
                }
            } catch {
                lock.withLock { failure = error }
            }
            lock.withLock { self.waits = waits }
            stopped.signal()
        }.start()
    }

    func finish() -> (waits: [UInt64], failure: Error?) {
        lock.withLock { stop = true }
        stopped.wait()
        return lock.withLock { (waits, failure) }
    }
}
