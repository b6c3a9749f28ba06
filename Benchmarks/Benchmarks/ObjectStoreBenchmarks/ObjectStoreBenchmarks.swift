import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import ObjectStore
import Streams

// The ObjectStore suite: each scenario for ObjectStore ("ours"), GRDB (the peer: SQLite through
// a Swift API) and, where it means something, a plain-Swift baseline (a Dictionary or an Array
// doing the same work with no database). Names follow `<scenario> (n=<operations>) [<flavour>]`.
// Setup (filling a store, opening files) happens before `startMeasurement()`.

let benchmarks: @Sendable () -> Void = {
    runScaleProbeIfAsked()          // run.sh's scale probe: one step, then exit (ScaleProbe.swift)
    runReaderProbeIfAsked()         // run.sh's reader-wait probe: likewise (ReaderWait.swift)
    registerWriteBenchmarks()
    registerReadBenchmarks()
    registerObservationBenchmarks()
    registerQuerySwitchBenchmarks()
    registerDiskBenchmarks()
    registerRewriteBenchmarks()
    runPairedProbeIfAsked()         // run.sh's paired probe: every scenario, flavours in turns (PairedProbe.swift)
}

/// Objects in the big scenarios (100k; 2k in smoke runs).
let bigCount = isSmoke ? 2_000 : 100_000

// Up to 6 s per flavour, or 20 s for the scenarios in which an iteration of some flavour takes
// a few tenths of a second or more (`long`: the writes that build a fresh store per iteration,
// GRDB's change delivery and primary-key lookups): with the 100,000-object stores built once per
// scenario (`prepared`), every flavour of every row then takes 10 samples or more, so one
// descheduling does not decide a figure. (At 6 s, GRDB's insert of 100,000 got 0 to 4 samples.)
var configuration: Benchmark.Configuration { suiteConfiguration(warmupIterations: 1, maxDuration: .seconds(6), maxIterations: 50) }
var longConfiguration: Benchmark.Configuration { suiteConfiguration(warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 50) }

/// The store (or database) a scenario reads (or changes as its next iterations allow), built at its first iteration (the
/// warm-up) and kept for the following ones, so the time budget buys samples rather than
/// repeated set-up. Only the latest scenario's is kept (the paired probe keeps each flavour's
/// of the scenario it measures, as they take turns).
func prepared<T>(_ benchmark: Benchmark, _ make: () throws -> T) rethrows -> T {
    if let kept = PreparedData.shared.value(for: benchmark.name) as? T { return kept }
    if !PreparedData.shared.keepsEveryScenario {
        PreparedData.shared.keep(nil, for: "")   // release the previous scenario's first
    }
    let value = try make()
    PreparedData.shared.keep(value, for: benchmark.name)
    return value
}

final class PreparedData: @unchecked Sendable {
    static let shared = PreparedData()
    private let lock = NSLock()
    private var values: [String: Any] = [:]
    /// Whether a scenario's data is kept when another's is made (`keep(nil, for:)` still
    /// releases all).
    var keepsEveryScenario: Bool {
        get { lock.withLock { keepsAll } }
        set { lock.withLock { keepsAll = newValue } }
    }
    private var keepsAll = false

    func value(for name: String) -> Any? { lock.withLock { values[name] } }
    /// Keeps `value` for the benchmark `name`; `nil` releases every value kept.
    func keep(_ value: Any?, for name: String) {
        lock.withLock {
            if let value { values[name] = value } else { values.removeAll() }
        }
    }
}

enum Flavor: String {
    case ours
    case grdb = "GRDB"
    case baseline
}

func scenario(_ name: String, _ flavor: Flavor, operations: Int, long: Bool = false, _ body: @escaping (Benchmark) throws -> Void) {
    let benchmark = registerScenario(name, flavour: flavor.rawValue, operations: operations,
                                     configuration: long ? longConfiguration : configuration, body)
    if let benchmark { PairedProbe.shared.add(benchmark, scenario: name, flavour: flavor.rawValue, operations: operations) }
}

// MARK: - The data, the same for both

struct Category: StoreObject, Codable, FetchableRecord, PersistableRecord {
    static var primaryKey: KeyPath<Category, Int> { \.id }
    static let databaseTableName = "category"
    var id: Int
    var name: String
}

/// Ours: a pizza with a to-many link to its categories.
struct Pizza: StoreObject {
    static var primaryKey: KeyPath<Pizza, Int> { \.id }
    var id: Int
    var name: String
    var price: Int
    var categories: [Category]
}

/// Ours, with an (ordered) index on `price`.
struct IndexedPizza: StoreObject {
    static var primaryKey: KeyPath<IndexedPizza, Int> { \.id }
    static var indexedProperties: [String] { ["price"] }
    var id: Int
    var name: String
    var price: Int
    var categories: [Category]

    init(_ pizza: Pizza) {
        id = pizza.id
        name = pizza.name
        price = pizza.price
        categories = pizza.categories
    }
}

/// GRDB's: the same columns, categories in a join table.
struct PizzaRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pizza"
    var id: Int
    var name: String
    var price: Int
}

struct PizzaCategory: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pizzaCategory"
    var pizzaId: Int
    var categoryId: Int
}

let categories = (1...8).map { Category(id: $0, name: "Category \($0)") }
let syllables = ["mar", "ghe", "ri", "ta", "di", "avo", "la", "quat", "tro", "for", "ma", "ggi", "bi", "an", "ca"]

/// Deterministic pizzas: names from syllables, prices 500–2499, one or two categories.
func makePizzas(_ count: Int, from start: Int = 1) -> [Pizza] {
    (start..<(start + count)).map { id in
        let name = syllables[id % syllables.count] + syllables[(id / 7) % syllables.count] + syllables[(id / 3) % syllables.count]
        var links = [categories[id % categories.count]]
        if id % 3 == 0 { links.append(categories[(id + 3) % categories.count]) }
        return Pizza(id: id, name: name.capitalized, price: 500 + (id * 7919) % 2000, categories: links)
    }
}

func ourStore(_ pizzas: [Pizza]) throws -> Store {
    let store = Store()
    try store.write { tx in try tx.add(pizzas, update: .modified) }
    return store
}

func createSchema(_ db: Database) throws {
    try db.create(table: "category") { t in
        t.primaryKey("id", .integer)
        t.column("name", .text).notNull()
    }
    try db.create(table: "pizza") { t in
        t.primaryKey("id", .integer)
        t.column("name", .text).notNull()
        t.column("price", .integer).notNull()
    }
    try db.create(table: "pizzaCategory") { t in
        t.column("pizzaId", .integer).notNull().references("pizza")
        t.column("categoryId", .integer).notNull().references("category")
        t.primaryKey(["pizzaId", "categoryId"])
    }
    try db.create(index: "pizzaCategoryByCategory", on: "pizzaCategory", columns: ["categoryId"])
}

func insert(_ pizzas: [Pizza], into db: Database) throws {
    for pizza in pizzas {
        try PizzaRecord(id: pizza.id, name: pizza.name, price: pizza.price).insert(db)
        for category in pizza.categories { try PizzaCategory(pizzaId: pizza.id, categoryId: category.id).insert(db) }
    }
}

func grdbQueue(_ pizzas: [Pizza], path: String? = nil) throws -> DatabaseQueue {
    let queue = try path.map { try DatabaseQueue(path: $0) } ?? DatabaseQueue()
    try queue.write { db in
        try createSchema(db)
        for category in categories { try category.insert(db) }
        try insert(pizzas, into: db)
    }
    return queue
}
