import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore
import Locking

/// A shelf a ranked object links to (a to-many link, through its primary key `id`).
struct Shelf: StoreObject, Equatable {
    static var primaryKey: KeyPath<Shelf, Int> { \.id }
    var id: Int
    var name: String
}

/// Ranked objects with ordered indexes on every plain field.
struct Ranked: StoreObject, Equatable {
    static var primaryKey: KeyPath<Ranked, Int> { \.id }
    static var indexedProperties: [String] { ["rank", "opt", "score", "name", "day", "flag"] }
    var id: Int
    var rank: Int
    var opt: Int?
    var score: Double
    var name: String
    var day: Date
    var flag: Bool
    var shelves: [Shelf]
}

/// The same fields with no index: the reference every indexed query is compared with.
struct PlainRanked: StoreObject, Equatable {
    static var primaryKey: KeyPath<PlainRanked, Int> { \.id }
    var id: Int
    var rank: Int
    var opt: Int?
    var score: Double
    var name: String
    var day: Date
    var flag: Bool
    var shelves: [Shelf]

    init(_ r: Ranked) {
        id = r.id; rank = r.rank; opt = r.opt; score = r.score; name = r.name; day = r.day; flag = r.flag; shelves = r.shelves
    }
}

/// Ordered indexes (sorts and range filters on indexed fields) and the index of a to-many
/// link's targets give exactly what the same query gives without them: compared at random on
/// both backends, with a base read from a file and with changes since the open.
@Suite(.resourceCheck) struct OrderedIndexTests {
    typealias S = FileStoreSupport

    static let shelves = (1...6).map { Shelf(id: $0, name: "Shelf \($0)") }
    // "é" twice: precomposed and decomposed, equal as strings, so a tie.
    static let names = ["alpha", "Beta", "é", "e\u{301}", "", "zeta", "beta", "Alpha"]
    static let scores: [Double] = [-1.5, -0.0, 0.0, 0.25, 1, 2.5, 3, 1e9, -.infinity, .infinity]

    static func ranked(_ id: Int, _ rng: inout SeededRandom) -> Ranked {
        Ranked(id: id, rank: Int.random(in: -3..<12, using: &rng),
               opt: Bool.random(using: &rng) ? Int.random(in: 0..<5, using: &rng) : nil,
               score: scores.randomElement(using: &rng)!, name: names.randomElement(using: &rng)!,
               day: Date(timeIntervalSince1970: Double(Int.random(in: 0..<6, using: &rng)) * 86_400),
               flag: Bool.random(using: &rng),
               shelves: (0..<Int.random(in: 0..<4, using: &rng)).map { _ in shelves.randomElement(using: &rng)! })
    }

    /// A random query: its text (with `%@` arguments) and its sort, if any.
    struct Query: CustomStringConvertible {
        var filter: (String, [Any])?
        var sort: (String, Bool)?
        var sortFirst = false
        /// A limit applied before anything else.
        var prefix: Int?
        var description: String {
            "\(prefix.map { "prefix \($0) " } ?? "")\(filter.map { "\($0.0) \($0.1)" } ?? "-") sort \(sort.map { "\($0.0) \($0.1)" } ?? "-")\(sortFirst ? " (sort first)" : "")"
        }
    }

    static func randomQuery(_ rng: inout SeededRandom) -> Query {
        let fields = ["rank", "opt", "score", "name", "day", "flag"]
        func bound(_ field: String) -> Any {
            switch field {
            case "rank", "opt":
                // Integers and doubles both compare with an integer field.
                return Bool.random(using: &rng) ? Int.random(in: -4..<13, using: &rng) : Double(Int.random(in: -8..<26, using: &rng)) / 2
            case "score": return Bool.random(using: &rng) ? scores.randomElement(using: &rng)! : Int.random(in: -2..<4, using: &rng)
            case "name": return names.randomElement(using: &rng)!
            case "day": return Date(timeIntervalSince1970: Double(Int.random(in: -1..<7, using: &rng)) * 86_400)
            default: return Bool.random(using: &rng)
            }
        }
        var query = Query()
        let field = fields.randomElement(using: &rng)!
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: break
        case 1:
            let op = ["<", "<=", ">", ">="].randomElement(using: &rng)!
            query.filter = ("\(field) \(op) %@", [bound(field)])
        case 2:
            let op = ["<", "<=", ">", ">="].randomElement(using: &rng)!
            query.filter = ("%@ \(op) \(field)", [bound(field)])
        case 3:
            query.filter = ("\(field) BETWEEN {%@, %@}", [bound(field), bound(field)])
        case 4:
            let ids = (0..<Int.random(in: 1..<4, using: &rng)).map { _ in Int.random(in: 0..<8, using: &rng) }
            query.filter = ("ANY shelves.id IN %@", [ids])
        case 5:
            query.filter = ("shelves.id == %@", [Int.random(in: 0..<8, using: &rng)])
        case 6:
            query.filter = ("\(field) > %@ AND flag == %@", [bound(field), Bool.random(using: &rng)])
        case 7:
            query.filter = ("NOT (rank == 3) OR name BEGINSWITH %@", ["a"])
        default:
            query.filter = ("rank >= %@ AND ANY shelves.id IN {1, 2}", [bound("rank")])
        }
        if Int.random(in: 0..<4, using: &rng) != 0 {
            let sortField = Bool.random(using: &rng) ? field : fields.randomElement(using: &rng)!
            query.sort = (sortField, Bool.random(using: &rng))
            query.sortFirst = Int.random(in: 0..<4, using: &rng) == 0
        }
        if Int.random(in: 0..<6, using: &rng) == 0 { query.prefix = Int.random(in: 0..<600, using: &rng) }
        return query
    }

    /// The ids a query gives; with `scan`, the filter is wrapped in a double negation, which
    /// no index serves (the link-target index needs no declaration, so the plain model has it).
    static func ids<T: StoreObject>(_ results: Results<T>, _ query: Query, scan: Bool = false, id: (T) -> Int) -> [Int] {
        var r = results
        if let n = query.prefix { r = r.prefix(n) }
        if query.sortFirst, let (key, ascending) = query.sort { r = r.sorted(byKeyPath: key, ascending: ascending) }
        if let (text, args) = query.filter {
            r = r.filter(try! StorePredicate(format: scan ? "NOT (NOT (\(text)))" : text, arguments: args))
        }
        if !query.sortFirst, let (key, ascending) = query.sort { r = r.sorted(byKeyPath: key, ascending: ascending) }
        return r.map(id)
    }

    /// Runs `rounds` random queries against both models; returns the first difference.
    static func compare(_ store: Store, _ rng: inout SeededRandom, rounds: Int) -> String? {
        for _ in 0..<rounds {
            let query = randomQuery(&rng)
            let indexed = ids(store.objects(Ranked.self), query) { $0.id }
            let plain = ids(store.objects(PlainRanked.self), query, scan: true) { $0.id }
            if indexed != plain { return "\(query): \(indexed) != \(plain)" }
        }
        return nil
    }

    /// Adds, replaces and deletes at random, the same on both models.
    static func randomWrites(_ store: Store, _ rng: inout SeededRandom, nextID: inout Int) throws {
        try store.write { tx in
            for _ in 0..<Int.random(in: 1..<30, using: &rng) {
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    let r = ranked(nextID, &rng)
                    nextID += 1
                    try tx.add(r, update: .modified)
                    try tx.add(PlainRanked(r), update: .modified)
                case 1:
                    let r = ranked(Int.random(in: 0..<nextID, using: &rng), &rng)
                    try tx.add(r, update: .modified)
                    try tx.add(PlainRanked(r), update: .modified)
                case 2:
                    // Another rank and name, the same links.
                    let id = Int.random(in: 0..<nextID, using: &rng)
                    guard var r = tx.object(ofType: Ranked.self, forPrimaryKey: id) else { continue }
                    r.rank = Int.random(in: -3..<12, using: &rng)
                    r.name = names.randomElement(using: &rng)!
                    try tx.add(r, update: .modified)
                    try tx.add(PlainRanked(r), update: .modified)
                default:
                    let id = Int.random(in: 0..<nextID, using: &rng)
                    if let r = tx.object(ofType: Ranked.self, forPrimaryKey: id) { try tx.delete(r) }
                    if let p = tx.object(ofType: PlainRanked.self, forPrimaryKey: id) { try tx.delete(p) }
                }
            }
        }
    }

    static func fill(_ store: Store, count: Int, _ rng: inout SeededRandom) throws {
        try store.write { tx in
            for id in 0..<count {
                let r = ranked(id, &rng)
                try tx.add(r, update: .modified)
                try tx.add(PlainRanked(r), update: .modified)
            }
            // Links to shelf 6 dangle once it is gone.
            if let six = tx.object(ofType: Shelf.self, forPrimaryKey: 6) { try tx.delete(six) }
        }
    }

    @Test(arguments: StoreBackend.allCases) func indexedQueriesGiveWhatScansGive(_ backend: StoreBackend) throws {
        var rng = SeededRandom(seed: backend == .memory ? 151 : 152)
        let store = try backend.makeStore()
        try Self.fill(store, count: 400, &rng)
        var nextID = 400
        #expect(Self.compare(store, &rng, rounds: 150) == nil)
        for _ in 0..<15 {
            try Self.randomWrites(store, &rng, nextID: &nextID)
            #expect(Self.compare(store, &rng, rounds: 25) == nil)
        }
        #expect(store._checkInvariants())
    }

    @Test func indexedQueriesOnABaseWithChangesSinceTheOpen() throws {
        var rng = SeededRandom(seed: 153)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var nextID = 700
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Ranked.self, PlainRanked.self, Shelf.self], autoCompaction: .never))
            try Self.fill(store, count: nextID, &rng)
            try store.compact()
        }
        for reopen in 0..<3 {
            let store = try Store(configuration: .file(url: url, objectTypes: [Ranked.self, PlainRanked.self, Shelf.self], autoCompaction: .never))
            let table = try #require(store.core.snapshot().tables["Ranked"])
            #expect(table.base != nil)
            #expect(table.orderedIndex(field: table.schema.fieldIndex["rank"]!) != nil)
            #expect(table.linkSourceSlots(field: table.schema.fieldIndex["shelves"]!, targets: [.int(1)]) != nil)
            // The base alone, then the base with replaced, deleted and added rows.
            #expect(Self.compare(store, &rng, rounds: 100) == nil)
            for _ in 0..<10 {
                try Self.randomWrites(store, &rng, nextID: &nextID)
                #expect(Self.compare(store, &rng, rounds: 20) == nil)
            }
            #expect(store._checkInvariants())
            if reopen == 1 { try store.compact() }
        }
    }

    /// Inside a write, the transaction's own changes are seen by sorted and ranged queries
    /// (which then scan: the indexes serve committed versions).
    @Test(arguments: StoreBackend.allCases) func queriesInsideAWriteSeeItsChanges(_ backend: StoreBackend) throws {
        var rng = SeededRandom(seed: 154)
        let store = try backend.makeStore()
        try Self.fill(store, count: 50, &rng)
        try store.write { tx in
            try tx.add(Ranked(id: 1000, rank: -100, opt: nil, score: 0, name: "", day: Date(), flag: true, shelves: [Self.shelves[0]]), update: .modified)
            #expect(tx.objects(Ranked.self).sorted(byKeyPath: "rank").first?.id == 1000)
            #expect(tx.objects(Ranked.self).filter("rank < -50").map(\.id) == [1000])
            #expect(tx.objects(Ranked.self).filter("ANY shelves.id == 1").map(\.id).contains(1000))
        }
        #expect(store.objects(Ranked.self).sorted(byKeyPath: "rank").first?.id == 1000)
        #expect(store.objects(Ranked.self).filter("rank < -50").map(\.id) == [1000])
    }

    @Test func theIndexesAreUsed() throws {
        var rng = SeededRandom(seed: 155)
        let store = try StoreBackend.memory.makeStore()
        try Self.fill(store, count: 100, &rng)
        let table = store.core.snapshot().tables["Ranked"]!
        let plain = store.core.snapshot().tables["PlainRanked"]!
        let rank = table.schema.fieldIndex["rank"]!
        let index = try #require(table.orderedIndex(field: rank))
        #expect(index.count == 100)
        #expect(plain.orderedIndex(field: rank) == nil)
        let range = try #require(ResultsEngine.indexHit(try StorePredicate(format: "rank BETWEEN {2, 4}").node, table))
        guard case .ordered(_, let field, let positions) = range else { Issue.record("no ordered hit"); return }
        #expect(field == rank)
        let expected = store.objects(PlainRanked.self).filter("rank BETWEEN {2, 4}").count
        #expect(positions.count == expected)
        #expect(ResultsEngine.indexHit(try StorePredicate(format: "rank BETWEEN {2, 4}").node, plain) == nil)
        let linked = try #require(ResultsEngine.indexCandidates(try StorePredicate(format: "ANY shelves.id IN {1, 2}").node, table))
        #expect(linked.count == store.objects(PlainRanked.self).filter("ANY shelves.id IN {1, 2}").count)
        #expect(linked == linked.sorted())
    }

    @Test func orderedIndexKeepsSlotOrderForTiesBothWays() {
        let keys: [StoreValue] = [.int(2), .null, .int(1), .int(2), .int(1), .null, .int(-5)]
        let index = OrderedIndex.build(slots: Array(0..<7), keys: keys, kind: .int)!
        #expect(index.slots == [1, 5, 6, 2, 4, 0, 3])
        #expect(index.slots(in: 0..<7, ascending: false) == [0, 3, 2, 4, 6, 1, 5])
        #expect(index.range(.less, .int(2)) == 2..<5)
        #expect(index.range(.greaterOrEqual, .double(1.5)) == 5..<7)
        #expect(index.range(.greaterOrEqual, .int(-9), high: .int(1)) == 2..<5)
        // NaN and values of another kind leave the field without an ordered index.
        #expect(OrderedIndex.build(slots: [0, 1], keys: [.double(1), .double(.nan)], kind: .double) == nil)
        #expect(OrderedIndex.build(slots: [0, 1], keys: [.int(1), .double(2)], kind: .int) == nil)
        // Large and negative integers need every radix pass.
        let wide: [StoreValue] = [.int(.max), .int(.min), .int(0), .int(-1), .int(1 << 40), .int(.min)]
        #expect(OrderedIndex.build(slots: Array(0..<6), keys: wide, kind: .int)!.slots == [1, 5, 3, 2, 4, 0])
        let merged = index.merged(with: OrderedIndex.build(slots: [7, 8], keys: [.int(1), .null], kind: .int)!) { $0 == 4 }
        #expect(merged.slots == [1, 5, 8, 6, 2, 7, 0, 3])
    }

    /// Readers sort and filter by range on eight threads while a writer changes ranks: every
    /// answer is the whole, ordered answer of one snapshot.
    @Test(arguments: StoreBackend.allCases) func readersAndAWriterStress(_ backend: StoreBackend) throws {
        var rng = SeededRandom(seed: 156)
        let store = try backend.makeStore()
        try Self.fill(store, count: 2_000, &rng)
        Self.stress(store, count: 2_000)
    }

    /// The same on a store opened from a file: the base's indexes are built by whichever
    /// reader needs them first, and merged with the writer's changes.
    @Test func readersAndAWriterOnABaseStress() throws {
        var rng = SeededRandom(seed: 158)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Ranked.self, PlainRanked.self, Shelf.self], autoCompaction: .never))
            try Self.fill(store, count: 2_000, &rng)
            try store.compact()
        }
        let store = try Store(configuration: .file(url: url, objectTypes: [Ranked.self, PlainRanked.self, Shelf.self], autoCompaction: .never))
        #expect(store.core.snapshot().tables["Ranked"]?.base != nil)
        Self.stress(store, count: 2_000)
    }

    static func stress(_ store: Store, count: Int) {
        let failures = Locked<[String]>([])
        let done = Locked(false)
        let writer = Thread {
            var rng = SeededRandom(seed: 157)
            for _ in 0..<60 {
                do {
                    try store.write { tx in
                        for _ in 0..<5 {
                            let id = Int.random(in: 0..<count, using: &rng)
                            guard var r = tx.object(ofType: Ranked.self, forPrimaryKey: id) else { return }
                            r.rank = Int.random(in: -3..<12, using: &rng)
                            try tx.add(r, update: .modified)
                        }
                    }
                } catch {
                    failures.withLock { $0.append("write: \(error)") }
                }
            }
            done.withLock { $0 = true }
        }
        writer.start()
        DispatchQueue.concurrentPerform(iterations: 8) { reader in
            var rounds = 0
            while !done.withLock({ $0 }) || rounds < 5 {
                rounds += 1
                let sorted = store.objects(Ranked.self).sorted(byKeyPath: "rank", ascending: reader % 2 == 0).map { ($0.rank, $0.id) }
                if sorted.count != count { failures.withLock { $0.append("\(sorted.count) sorted") } }
                for i in sorted.indices.dropFirst() {
                    let (a, b) = (sorted[i - 1], sorted[i])
                    let inOrder = a.0 == b.0 ? a.1 < b.1 : (reader % 2 == 0 ? a.0 < b.0 : a.0 > b.0)
                    if !inOrder { failures.withLock { $0.append("out of order at \(i)") }; break }
                }
                let low = store.objects(Ranked.self).filter("rank < 4").count
                let high = store.objects(Ranked.self).filter("rank >= 4").count
                if low + high > 2 * count || low > count || high > count { failures.withLock { $0.append("\(low) + \(high)") } }
                let frozen = store.objects(Ranked.self).freeze()
                let split = frozen.filter("rank BETWEEN {-100, 3}").count + frozen.filter("rank > 3").count
                if split != count { failures.withLock { $0.append("a snapshot split into \(split)") } }
                let linked = frozen.filter("ANY shelves.id IN {1, 2}").count + frozen.filter("NOT (ANY shelves.id IN {1, 2})").count
                if linked != count { failures.withLock { $0.append("\(linked) linked or not") } }
            }
        }
        while !done.withLock({ $0 }) { usleep(1_000) }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(5) })")
    }
}
