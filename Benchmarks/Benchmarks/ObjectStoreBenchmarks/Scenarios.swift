import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import ObjectStore
import Streams

func registerWriteBenchmarks() {
    let name = "Insert \(bigCount) objects in one transaction"
    let pizzas = makePizzas(bigCount)

    scenario(name, .ours, operations: bigCount, long: true) { benchmark in
        let store = Store()
        try store.write { tx in try tx.add(categories) }
        benchmark.startMeasurement()
        try store.write { tx in try tx.add(pizzas, update: .modified) }
        benchmark.stopMeasurement()
        precondition(store.objects(Pizza.self).count == bigCount)
    }

    scenario(name, .grdb, operations: bigCount, long: true) { benchmark in
        let queue = try grdbQueue([])
        benchmark.startMeasurement()
        try queue.write { db in try insert(pizzas, into: db) }
        benchmark.stopMeasurement()
        let stored = try queue.read { try PizzaRecord.fetchCount($0) }
        precondition(stored == bigCount)
    }

    scenario(name, .baseline, operations: bigCount, long: true) { benchmark in
        var table: [Int: Pizza] = [:]
        benchmark.startMeasurement()
        for pizza in pizzas { table[pizza.id] = pizza }
        benchmark.stopMeasurement()
        precondition(table.count == bigCount)
    }
}

func registerReadBenchmarks() {
    let pizzas = makePizzas(bigCount)
    let lookups = 10_000
    let keys = (0..<lookups).map { ($0 * 7_919) % bigCount + 1 }
    let lookupName = "Primary-key lookup in \(bigCount)"

    scenario(lookupName, .ours, operations: lookups, long: true) { benchmark in
        let store = try prepared(benchmark) { try ourStore(pizzas) }
        var found = 0
        benchmark.startMeasurement()
        for key in keys where store.object(ofType: Pizza.self, forPrimaryKey: key) != nil { found += 1 }
        benchmark.stopMeasurement()
        precondition(found == lookups)
    }

    scenario(lookupName, .grdb, operations: lookups, long: true) { benchmark in
        let queue = try prepared(benchmark) { try grdbQueue(pizzas) }
        var found = 0
        benchmark.startMeasurement()
        try queue.read { db in
            for key in keys where try PizzaRecord.fetchOne(db, key: key) != nil { found += 1 }
        }
        benchmark.stopMeasurement()
        precondition(found == lookups)
    }

    scenario(lookupName, .baseline, operations: lookups, long: true) { benchmark in
        let table = Dictionary(uniqueKeysWithValues: pizzas.map { ($0.id, $0) })
        var found = 0
        benchmark.startMeasurement()
        for key in keys where table[key] != nil { found += 1 }
        benchmark.stopMeasurement()
        precondition(found == lookups)
    }

    // price < 1000 AND name CONTAINS[c] 'a', materialised.
    let expectedFiltered = pizzas.filter { $0.price < 1000 && $0.name.lowercased().contains("a") }.count
    let filterName = "Filtered query over \(bigCount) (price < X AND name CONTAINS[c] 'a')"

    scenario(filterName, .ours, operations: 1) { benchmark in
        let store = try prepared(benchmark) { try ourStore(pizzas) }
        benchmark.startMeasurement()
        let rows = store.objects(Pizza.self).filter("price < %@ AND name CONTAINS[c] %@", 1000, "a").toArray()
        benchmark.stopMeasurement()
        precondition(rows.count == expectedFiltered)
    }

    scenario(filterName, .grdb, operations: 1) { benchmark in
        let queue = try prepared(benchmark) { try grdbQueue(pizzas) }
        benchmark.startMeasurement()
        let rows = try queue.read { db in
            try PizzaRecord.filter(Column("price") < 1000 && Column("name").like("%a%")).fetchAll(db)
        }
        benchmark.stopMeasurement()
        precondition(rows.count == expectedFiltered)
    }

    scenario(filterName, .baseline, operations: 1) { benchmark in
        benchmark.startMeasurement()
        let rows = pizzas.filter { $0.price < 1000 && $0.name.range(of: "a", options: .caseInsensitive) != nil }
        benchmark.stopMeasurement()
        precondition(rows.count == expectedFiltered)
    }

    let sortName = "Sorted query over \(bigCount) (by price)"

    scenario(sortName, .ours, operations: 1) { benchmark in
        let store = try prepared(benchmark) { try ourStore(pizzas) }
        benchmark.startMeasurement()
        let rows = store.objects(Pizza.self).sorted(byKeyPath: "price").toArray()
        benchmark.stopMeasurement()
        precondition(rows.count == bigCount && rows.first!.price <= rows.last!.price)
    }

    scenario(sortName, .grdb, operations: 1) { benchmark in
        let queue = try prepared(benchmark) { try grdbQueue(pizzas) }
        benchmark.startMeasurement()
        let rows = try queue.read { db in try PizzaRecord.order(Column("price")).fetchAll(db) }
        benchmark.stopMeasurement()
        precondition(rows.count == bigCount)
    }

    scenario(sortName, .baseline, operations: 1) { benchmark in
        benchmark.startMeasurement()
        let rows = pizzas.sorted { $0.price < $1.price }
        benchmark.stopMeasurement()
        precondition(rows.count == bigCount)
    }

    let indexedSortName = "Sorted query over \(bigCount) by an indexed field"

    scenario(indexedSortName, .ours, operations: 1) { benchmark in
        let store = Store()
        try store.write { tx in try tx.add(pizzas.map(IndexedPizza.init), update: .modified) }
        benchmark.startMeasurement()
        let rows = store.objects(IndexedPizza.self).sorted(byKeyPath: "price").toArray()
        benchmark.stopMeasurement()
        precondition(rows.count == bigCount && rows.first!.price <= rows.last!.price)
    }

    scenario(indexedSortName, .grdb, operations: 1) { benchmark in
        // Built once (SQLite keeps the index in the file); ours, above, builds its store each time.
        let queue = try prepared(benchmark) {
            let queue = try grdbQueue(pizzas)
            try queue.write { db in try db.create(index: "pizzaByPrice", on: "pizza", columns: ["price"]) }
            return queue
        }
        benchmark.startMeasurement()
        let rows = try queue.read { db in try PizzaRecord.order(Column("price")).fetchAll(db) }
        benchmark.stopMeasurement()
        precondition(rows.count == bigCount)
    }

    let wanted: Set<Int> = [2, 5]
    let expectedLinked = pizzas.filter { $0.categories.contains { wanted.contains($0.id) } }.count
    let linkName = "ANY categories.id IN {2, 5} over \(bigCount)"

    scenario(linkName, .ours, operations: 1) { benchmark in
        let store = try ourStore(pizzas)
        benchmark.startMeasurement()
        let rows = store.objects(Pizza.self).filter("ANY categories.id IN %@", Array(wanted)).toArray()
        benchmark.stopMeasurement()
        precondition(rows.count == expectedLinked)
    }

    scenario(linkName, .grdb, operations: 1) { benchmark in
        let queue = try prepared(benchmark) { try grdbQueue(pizzas) }   // a query of it changes nothing
        benchmark.startMeasurement()
        let rows = try queue.read { db in
            try PizzaRecord.fetchAll(db, sql: """
                SELECT * FROM pizza WHERE id IN (SELECT pizzaId FROM pizzaCategory WHERE categoryId IN (2, 5))
                """)
        }
        benchmark.stopMeasurement()
        precondition(rows.count == expectedLinked)
    }
}

func registerObservationBenchmarks() {
    let pizzas = makePizzas(bigCount)
    let name = "Change delivered to an observer of \(bigCount) results after a one-object write"
    let writes = isSmoke ? 1 : 10
    // Both observers are called on a queue of their own; each write waits for its delivery.

    scenario(name, .ours, operations: writes, long: true) { benchmark in
        let store = try prepared(benchmark) { try ourStore(pizzas) }
        let delivered = DispatchSemaphore(value: 0)
        let counter = Counter()
        let subscription = store.objects(Pizza.self).observe(on: SerialDispatchQueueScheduler(internalSerialQueueName: "observer"))
            .subscribe(onNext: { change in
                if case .update(_, _, _, let modifications) = change, modifications.count == 1 {
                    counter.increment()
                    delivered.signal()
                }
            })
        benchmark.startMeasurement()
        for write in 0..<writes {
            try store.write { tx in
                // The stored pizza, as GRDB's `price = price + ?` reads it: the store is kept
                // across iterations, so a price made from `pizzas` alone would repeat the last
                // iteration's, change nothing, and never be delivered.
                var pizza = store.object(ofType: Pizza.self, forPrimaryKey: pizzas[write].id)!
                pizza.price += 1 + write
                try tx.add(pizza, update: .modified)
            }
            delivered.wait()
        }
        benchmark.stopMeasurement()
        subscription.dispose()
        precondition(counter.value == writes, "\(counter.value) deliveries")
    }

    scenario(name, .grdb, operations: writes, long: true) { benchmark in
        let queue = try prepared(benchmark) { try grdbQueue(pizzas) }
        let delivered = DispatchSemaphore(value: 0)
        let counter = Counter()
        let observation = ValueObservation.tracking { db in try PizzaRecord.fetchAll(db) }
        let cancellable = observation.start(in: queue, scheduling: .async(onQueue: DispatchQueue(label: "observer")),
                                            onError: { fatalError("\($0)") }, onChange: { rows in
            precondition(rows.count == bigCount)
            counter.increment()
            delivered.signal()
        })
        delivered.wait()                        // the initial value
        benchmark.startMeasurement()
        for write in 0..<writes {
            try queue.write { db in
                try db.execute(sql: "UPDATE pizza SET price = price + ? WHERE id = ?", arguments: [1 + write, pizzas[write].id])
            }
            delivered.wait()
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        precondition(counter.value == writes + 1, "\(counter.value) deliveries")
    }
}

/// A fresh folder in the temporary directory.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("objectstore-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A file in a folder of its own, removed with the folder when the object goes (a `prepared`
/// file lasts until the next scenario's data replaces it).
final class TemporaryFile {
    let url: URL
    private let folder: URL

    init(name: String) throws {
        folder = try temporaryFolder()
        url = folder.appendingPathComponent(name)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

func registerDiskBenchmarks() {
    let transactions = isSmoke ? 20 : 1_000
    let small = "\(transactions) small transactions on disk, full durability"
    let pizzas = makePizzas(transactions)

    scenario(small, .ours, operations: transactions, long: true) { benchmark in
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store(configuration: .file(url: folder.appendingPathComponent("bench.store"), durability: .full))
        try store.write { tx in try tx.add(categories) }
        benchmark.startMeasurement()
        for pizza in pizzas { try store.write { tx in try tx.add(pizza, update: .modified) } }
        benchmark.stopMeasurement()
        precondition(store.objects(Pizza.self).count == transactions)
    }

    scenario(small, .grdb, operations: transactions, long: true) { benchmark in
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // SQLite's defaults: a rollback journal, synchronous = FULL.
        let queue = try grdbQueue([], path: folder.appendingPathComponent("bench.sqlite").path)
        benchmark.startMeasurement()
        for pizza in pizzas { try queue.write { db in try insert([pizza], into: db) } }
        benchmark.stopMeasurement()
        let stored = try queue.read { try PizzaRecord.fetchCount($0) }
        precondition(stored == transactions)
    }

    let all = makePizzas(bigCount)
    let insertName = "Insert \(bigCount) objects in one transaction, on disk"

    scenario(insertName, .ours, operations: bigCount, long: true) { benchmark in
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store(configuration: .file(url: folder.appendingPathComponent("bench.store")))
        benchmark.startMeasurement()
        try store.write { tx in try tx.add(all, update: .modified) }
        benchmark.stopMeasurement()
        precondition(store.objects(Pizza.self).count == bigCount)
    }

    scenario(insertName, .grdb, operations: bigCount, long: true) { benchmark in
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try grdbQueue([], path: folder.appendingPathComponent("bench.sqlite").path)
        benchmark.startMeasurement()
        try queue.write { db in try insert(all, into: db) }
        benchmark.stopMeasurement()
        let stored = try queue.read { try PizzaRecord.fetchCount($0) }
        precondition(stored == bigCount)
    }

    let openName = "Open a file of \(bigCount) objects and count them"

    // The file is written once and opened afresh by each iteration (an open and a count change
    // nothing in it), so the time budget buys samples, not files. It is synced once written: the
    // kernel's write-back of a file just written would otherwise run during some samples.
    scenario(openName, .ours, operations: 1) { benchmark in
        let url = try prepared(benchmark) {
            let file = try TemporaryFile(name: "bench.store")
            let store = try Store(configuration: .file(url: file.url, durability: .relaxed))
            try store.write { tx in try tx.add(all, update: .modified) }
            sync()
            return file
        }.url
        benchmark.startMeasurement()
        let store = try Store(configuration: .file(url: url))
        let count = store.objects(Pizza.self).count
        benchmark.stopMeasurement()
        precondition(count == bigCount)
    }

    scenario(openName, .grdb, operations: 1) { benchmark in
        let path = try prepared(benchmark) {
            let file = try TemporaryFile(name: "bench.sqlite")
            _ = try grdbQueue(all, path: file.url.path)
            sync()
            return file
        }.url.path
        benchmark.startMeasurement()
        let queue = try DatabaseQueue(path: path)
        let count = try queue.read { try PizzaRecord.fetchCount($0) }
        benchmark.stopMeasurement()
        precondition(count == bigCount)
    }
}

/// A counter the observation callback may touch from GRDB's side.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
