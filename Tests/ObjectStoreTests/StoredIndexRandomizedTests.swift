import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// The secondary indexes (the equality indexes a table keeps, the ordered indexes derived from
/// each version, and a file snapshot's stored index pages under both) through random sequences
/// of every kind of write: adds, deletes, re-keyings (an object deleted and added again under a
/// new key, which leaves a deleted slot behind, until the table is numbered again), `.modified`
/// and `.all` upserts that change indexed fields, updates in place, an object deleted and added
/// back under its own key, deletions by query, many objects at once, rollbacks and empty
/// commits; on a file, compactions (new stored indexes) and reopening (indexes read from the
/// file). After every commit each query that an index serves must list the same slots, in the
/// same order, as the same query answered without one: its filter by a scan of every row, its
/// sort by comparing the rows' values (`sortCompare`, ties in slot order).
///
/// The same for the link-target index of a to-many link (`linkQueriesEqualAScanAfterEveryCommit`).
///
/// `REACTIVEMVVM_INDEX_COMMITS` sets the number of commits of each test (default 600, split between
/// the backends, in rounds of 300 on a new store each); `REACTIVEMVVM_INDEX_SEED` the seed of
/// the first round (a failure names the seed of its round).
@Suite(.resourceCheck) struct StoredIndexRandomizedTests {
    static let environment = ProcessInfo.processInfo.environment
    static let commits = Int(environment["REACTIVEMVVM_INDEX_COMMITS"] ?? "") ?? 600
    static let firstSeed = UInt64(environment["REACTIVEMVVM_INDEX_SEED"] ?? "") ?? 20_261_301
    static let roundLength = 300

    @Test(arguments: StoreBackend.allCases)
    func indexedQueriesEqualAScanAfterEveryCommit(_ backend: StoreBackend) throws {
        let total = max(1, Self.commits / StoreBackend.allCases.count)
        let start = Date()
        var tally = Tally()
        guard let done = try runSeededRounds(total: total, roundLength: Self.roundLength, firstSeed: Self.firstSeed,
                                              label: backend.testDescription, { seed, count in
            try Self.round(backend, seed: seed, commits: count, tally: &tally)
        }) else { return }
        // Every query went through its index, and the rows were numbered again, many times.
        let unserved = Self.queries.indices.filter { tally.served[$0, default: 0] == 0 }.map { Self.queries[$0].label }
        #expect(unserved.isEmpty, "never served by an index: \(unserved)")
        if total >= 300 {
            #expect(tally.renumbered > 0, "no commit or compaction numbered the rows again")
            #expect(tally.kinds == Set(Write.allCases), "only \(tally.kinds.map(\.rawValue).sorted()) were written")
            if backend == .file { #expect(tally.reopened > 0 && tally.compacted > 0) }
        }
        if Self.commits > 10_000 {
            print("StoredIndexRandomizedTests: \(done) commits \(backend.testDescription), \(tally.checks) queries checked, "
                  + "\(tally.renumbered) renumberings, \(tally.compacted) compactions, \(tally.reopened) reopenings "
                  + "in \(Int(Date().timeIntervalSince(start))) s")
        }
    }

    /// The link-target index (the slots whose to-many link lists a key, derived from each
    /// version and, on a file, read from the snapshot beside the rows) through random commits of
    /// crates and the categories they link: crates added, deleted, re-keyed, their links
    /// changed, deleted and added back under their key; categories deleted (their links then
    /// name nothing) and added back; rollbacks, empty commits; on a file, compactions and
    /// reopening. After every commit each query the index serves lists what a scan lists, and
    /// observers of link queries (a commit of crates alone is placed into their results, one of
    /// categories evaluates them again) show the results (`ShownChanges`).
    @Test(arguments: StoreBackend.allCases)
    func linkQueriesEqualAScanAfterEveryCommit(_ backend: StoreBackend) throws {
        let total = max(1, Self.commits / StoreBackend.allCases.count)
        var served = 0, checks = 0
        let start = Date()
        guard let done = try runSeededRounds(total: total, roundLength: Self.roundLength, firstSeed: Self.firstSeed &+ 1_000,
                                              label: backend.testDescription, { seed, count in
            try Self.linkRound(backend, seed: seed, commits: count, served: &served, checks: &checks)
        }) else { return }
        #expect(served * 2 > checks, "an index served \(served) of \(checks) queries")
        if Self.commits > 10_000 {
            print("StoredIndexRandomizedTests: \(done) commits of links \(backend.testDescription), \(checks) queries checked "
                  + "(\(served) through an index) in \(Int(Date().timeIntervalSince(start))) s")
        }
    }

    /// A crate with a to-many link to categories.
    struct Crate: StoreObject, Equatable {
        static var primaryKey: KeyPath<Crate, Int> { \.id }
        static var indexedProperties: [String] { ["label"] }
        var id: Int
        var label: String
        var tags: [Category]

        /// A crate linking up to three of the categories 1…6.
        static func make(_ id: Int, _ rng: inout SeededRandom) -> Crate {
            let tags = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 1...6, using: &rng) }
            return Crate(id: id, label: ["x", "y", "z"].randomElement(using: &rng)!, tags: tags.map { Category(id: $0, name: "c\($0)") })
        }
    }

    /// Queries the link-target index serves (the last the label's equality index).
    static let linkQueries = [
        "ANY tags.id IN {1, 2}", "tags.id == 3", "ANY tags.id IN {4, 6, 9}", "ANY tags.id IN {5} AND label == 'y'", "label == 'z'",
    ]

    /// A store of random crates, then `commits` random commits, each followed by the link queries checked against their scan; returns what went wrong.
    static func linkRound(_ backend: StoreBackend, seed: UInt64, commits: Int, served: inout Int, checks: inout Int) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let url = FileStoreSupport.temporaryFile("links-\(seed).store")
        defer { FileStoreSupport.cleanUp(url) }
        let types: [any StoreObject.Type] = [Crate.self, Category.self]
        func open() throws -> Store {
            switch backend {
            case .memory: return try Store(configuration: .inMemory(identifier: "links-\(UUID().uuidString)", objectTypes: types))
            case .file: return try Store(configuration: .file(url: url, objectTypes: types, durability: .relaxed, autoCompaction: .never))
            }
        }
        var store: Store! = try open()
        var keys: [Int] = [], next = 0
        try store.write { tx in
            for _ in 0..<Int.random(in: 40...140, using: &rng) {
                try tx.add(Crate.make(next, &rng), update: .modified)
                keys.append(next)
                next += 1
            }
        }
        var failures: [String] = []
        var observers: [(results: Results<Crate>, shown: ShownChanges<Crate>, subscription: Disposable)] = []
        func observe() {
            for o in observers { failures += o.shown.failures; o.subscription.dispose() }
            observers = ["ANY tags.id IN {1, 2}", "tags.id == 3 OR label == 'x'"].map { format in
                let results = store.objects(Crate.self).filter(format).sorted(byKeyPath: "label")
                let shown = ShownChanges<Crate>(format)
                return (results, shown, results.observe(on: ImmediateScheduler.instance).subscribe(onNext: { shown.apply($0) }))
            }
        }
        observe()
        defer { for o in observers { o.subscription.dispose() } }
        for step in 0..<commits {
            var k = keys, n = next
            var local = SeededRandom(seed: rng.next())
            let kind = Int.random(in: 0..<11, using: &rng)
            do {
                try store.write { tx in
                    func some() -> Int? { k.isEmpty ? nil : k[Int.random(in: 0..<k.count, using: &local)] }
                    switch kind {
                    case 0:
                        try tx.add(Crate.make(n, &local), update: .modified)
                        k.append(n)
                        n += 1
                    case 1:
                        guard let key = some() else { return }
                        _ = try tx.delete(Crate.self, forPrimaryKey: key)
                        k.removeAll { $0 == key }
                    case 2, 3:
                        // The lowest key moved to a new one, links kept.
                        guard let key = k.min(), var crate = tx.object(ofType: Crate.self, forPrimaryKey: key) else { return }
                        try tx.delete(crate)
                        crate.id = n
                        try tx.add(crate, update: .modified)
                        k.removeAll { $0 == key }
                        k.append(n)
                        n += 1
                    case 4, 5:
                        guard let key = some() else { return }
                        try tx.add(Crate.make(key, &local), update: Bool.random(using: &local) ? .modified : .all)
                    case 6:
                        guard let key = some(), let crate = tx.object(ofType: Crate.self, forPrimaryKey: key) else { return }
                        try tx.delete(crate)
                        try tx.add(Bool.random(using: &local) ? crate : Crate.make(key, &local), update: .modified)
                    case 7:
                        // A category deleted: the links to it name nothing until it comes back.
                        _ = try tx.delete(Category.self, forPrimaryKey: Int.random(in: 1...6, using: &local))
                    case 8:
                        let id = Int.random(in: 1...6, using: &local)
                        try tx.add(Category(id: id, name: "c\(id)\(Int.random(in: 0..<2, using: &local))"), update: .modified)
                    case 9:
                        try tx.add(Crate.make(n, &local), update: .modified)
                        if let key = some() { _ = try tx.delete(Crate.self, forPrimaryKey: key) }
                        throw Rollback()
                    default:
                        return
                    }
                }
                keys = k
                next = n
            } catch is Rollback {}
            var at = "commit \(step + 1) (kind \(kind))"
            if backend == .file {
                switch Int.random(in: 0..<40, using: &rng) {
                case 0:
                    try store.compact()
                    at += ", compacted"
                case 1:
                    for o in observers { failures += o.shown.failures; o.subscription.dispose() }
                    observers = []
                    store = nil
                    store = try open()
                    observe()
                    at += ", reopened"
                default: break
                }
            }
            let snapshot = store.core.snapshot()
            guard let table = snapshot.tables["Crate"] else { return ["\(at): no table"] }
            for o in observers {
                failures += o.shown.failures
                if o.shown.list != o.results.toArray() { failures.append("\(at): \(o.shown.label): the list shown is not the results") }
            }
            for format in linkQueries {
                let results = store.objects(Crate.self).filter(format).pinned(to: snapshot)
                guard case .filter(let first)? = results.pipeline.first else { return ["\(at): no filter"] }
                if ResultsEngine.exactLinkCandidates(first.node, table, snapshot) != nil || ResultsEngine.indexHit(first.node, table) != nil {
                    served += 1
                }
                checks += 1
                let indexed = ResultsEngine.run(results.pipeline, schema: results.schema, snapshot: snapshot)
                let scan = store.objects(Crate.self).filter("TRUEPREDICATE").filter(format).pinned(to: snapshot)
                let scanned = ResultsEngine.run(scan.pipeline, schema: scan.schema, snapshot: snapshot)
                if indexed != scanned { failures.append("\(at): \(format): slots \(indexed.prefix(12)) through the index, \(scanned.prefix(12)) by a scan") }
            }
            if step % 50 == 49, !store._checkInvariants() { failures.append("\(at): the store's indexes do not agree with its rows") }
            if !failures.isEmpty { return failures }
        }
        return failures
    }

    /// What a run did, over its rounds.
    struct Tally {
        var served: [Int: Int] = [:]
        var kinds: Set<Write> = []
        var renumbered = 0, compacted = 0, reopened = 0, checks = 0
    }

    /// One query: a first filter an index can serve (or none), then a sort by one field, then
    /// a limit.
    struct IndexedQuery {
        let label: String
        let filter: StorePredicate?
        let sort: (field: String, ascending: Bool)?
        let limit: Int?

        init(_ label: String, _ filter: String?, _ arguments: Any..., sort: (String, Bool)? = nil, limit: Int? = nil) {
            self.label = label
            self.filter = filter.map { try! StorePredicate(format: $0, arguments: arguments) }
            self.sort = sort.map { (field: $0.0, ascending: $0.1) }
            self.limit = limit
        }

        /// The query as live results of `store`.
        func results(_ store: Store) -> Results<Shelved> {
            var results = store.objects(Shelved.self)
            if let filter { results = results.filter(filter) }
            if let sort { results = results.sorted(byKeyPath: sort.field, ascending: sort.ascending) }
            if let limit { results = results.prefix(limit) }
            return results
        }

        /// The slots of the same query answered without an index: a first filter no index
        /// serves (`TRUEPREDICATE`) scans every row, the query's own filter tests what it
        /// found, and the rows are sorted by their values, equal values in slot order.
        func scanned(_ store: Store, _ snapshot: Snapshot) -> [Int] {
            var results = store.objects(Shelved.self).filter("TRUEPREDICATE")
            if let filter { results = results.filter(filter) }
            var slots = results.pinned(to: snapshot).evaluate(in: snapshot).slots
            guard let table = snapshot.tables["Shelved"] else { return [] }
            if let sort {
                let field = table.schema.fieldIndex[sort.field]!
                let values = slots.map { table.row($0)![field] }
                let order = values.indices.sorted { a, b in
                    let c = sortCompare(values[a], values[b])
                    if c != 0 { return sort.ascending ? c < 0 : c > 0 }
                    return a < b
                }
                slots = order.map { slots[$0] }
            }
            if let limit, slots.count > limit { slots.removeSubrange(limit...) }
            return slots
        }

        /// Whether an index serves this query on `table`: its first filter, or its sort.
        func isServed(_ results: Results<Shelved>, _ table: TableState) -> Bool {
            if case .filter(let first)? = results.pipeline.first, ResultsEngine.indexHit(first.node, table) != nil { return true }
            guard let sort, let field = table.schema.fieldIndex[sort.field] else { return false }
            return table.orderedIndex(field: field) != nil
        }
    }

    /// Equalities and `IN` through the equality indexes (nulls, `-0.0`, a non-ASCII title
    /// included); ranges through the ordered indexes, alone, sorted by their own field either
    /// way (the index's order) or by another; sorts alone; a conjunction; a limit.
    static let queries: [IndexedQuery] = [
        IndexedQuery("shelf ==", "shelf == 7"),
        IndexedQuery("shelf IN", "shelf IN {-5, 0, 3, 40}"),
        IndexedQuery("title ==", "title == 'Ä'"),
        IndexedQuery("title == empty", "title == ''", sort: ("shelf", true)),
        IndexedQuery("weight ==", "weight == 0.0"),
        IndexedQuery("due == nil", "due == nil"),
        IndexedQuery("code IN", "code IN {nil, 2, 5}"),
        IndexedQuery("and", "title == 'ab' AND shelf > 10"),
        IndexedQuery("shelf <", "shelf < 4"),
        IndexedQuery("shelf BETWEEN", "shelf BETWEEN {3, 19}"),
        IndexedQuery("shelf >= sorted", "shelf >= 12", sort: ("shelf", true)),
        IndexedQuery("shelf <= sorted down", "shelf <= 25", sort: ("shelf", false)),
        IndexedQuery("weight > sorted by title", "weight > -0.5", sort: ("title", true)),
        IndexedQuery("due >", "due > %@", Date(timeIntervalSinceReferenceDate: 4)),
        IndexedQuery("code <= sorted", "code <= 3", sort: ("code", false)),
        IndexedQuery("title >", "title > 'a'", sort: ("title", true)),
        IndexedQuery("flipped", "10 < shelf", sort: ("weight", true), limit: 15),
        IndexedQuery("sorted shelf", nil, sort: ("shelf", true)),
        IndexedQuery("sorted title down", nil, sort: ("title", false)),
        IndexedQuery("sorted weight", nil, sort: ("weight", true)),
        IndexedQuery("sorted due", nil, sort: ("due", true), limit: 20),
        IndexedQuery("sorted code down", nil, sort: ("code", false)),
        IndexedQuery("scan then sorted", "id >= 0", sort: ("shelf", false)),
    ]

    /// The kinds of write.
    enum Write: String, CaseIterable {
        case add, delete, rekeyLowest, rekeyRandom, modified, all, updateInPlace, readdSameKey, deleteWhere, many, rollback, empty
    }

    /// Thrown inside a transaction to roll it back.
    struct Rollback: Error {}

    /// A store filled with random objects, then `commits` random commits, each followed by
    /// every query checked against its scan; returns what went wrong.
    static func round(_ backend: StoreBackend, seed: UInt64, commits: Int, tally: inout Tally) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let url = FileStoreSupport.temporaryFile("indexes-\(seed).store")
        defer { FileStoreSupport.cleanUp(url) }
        func open() throws -> Store {
            switch backend {
            case .memory: return try Store(configuration: .inMemory(identifier: "indexes-\(UUID().uuidString)", objectTypes: [Shelved.self]))
            case .file: return try Store(configuration: .file(url: url, objectTypes: [Shelved.self], durability: .relaxed, autoCompaction: .never))
            }
        }
        var store: Store! = try open()
        var mirror: [Int: Shelved] = [:]
        var next = 0
        try store.write { tx in
            for _ in 0..<Int.random(in: 40...160, using: &rng) {
                let object = Shelved.make(next, &rng)
                try tx.add(object)
                mirror[next] = object
                next += 1
            }
        }
        if backend == .file, Bool.random(using: &rng) { try store.compact() }

        var failures: [String] = []
        for step in 0..<commits {
            let numbering = store.core.snapshot().tables["Shelved"]?.slotNumbering
            let kind = try commit(store, &mirror, &next, &rng)
            tally.kinds.insert(kind)
            var at = "commit \(step + 1) (\(kind.rawValue))"
            if backend == .file {
                switch Int.random(in: 0..<40, using: &rng) {
                case 0:
                    try store.compact()
                    tally.compacted += 1
                    at += ", compacted"
                case 1:
                    store = nil
                    store = try open()
                    tally.reopened += 1
                    at += ", reopened"
                default: break
                }
            }
            let snapshot = store.core.snapshot()
            guard let table = snapshot.tables["Shelved"] else { return ["\(at): no table"] }
            if table.slotNumbering != numbering { tally.renumbered += 1 }
            let stored = store.objects(Shelved.self).toArray()
            if stored.count != mirror.count || Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) != mirror {
                failures.append("\(at): the store does not hold what was written")
            }
            for (i, query) in queries.enumerated() {
                let results = query.results(store).pinned(to: snapshot)
                if query.isServed(results, table) { tally.served[i, default: 0] += 1 }
                let indexed = ResultsEngine.run(results.pipeline, schema: results.schema, snapshot: snapshot)
                let scanned = query.scanned(store, snapshot)
                tally.checks += 1
                if indexed != scanned {
                    let keys = { (slots: [Int]) in slots.prefix(12).map { table.row($0).map { "\($0[0].literal)" } ?? "?" } }
                    failures.append("\(at): \(query.label): \(indexed.count) objects \(keys(indexed)) through the index, "
                                    + "\(scanned.count) \(keys(scanned)) by a scan")
                }
            }
            if step % 50 == 49, !store._checkInvariants() { failures.append("\(at): the store's indexes do not agree with its rows") }
            if !failures.isEmpty { return failures }
        }
        return failures
    }

    /// One transaction of a random kind, mirrored in `mirror`; returns the kind.
    static func commit(_ store: Store, _ mirror: inout [Int: Shelved], _ next: inout Int, _ rng: inout SeededRandom) throws -> Write {
        let kind = pick(&rng, count: mirror.count)
        var m = mirror, n = next
        var local = SeededRandom(seed: rng.next())
        do {
            try store.write { tx in
                switch kind {
                case .empty: return
                case .rollback:
                    for _ in 0..<Int.random(in: 1...3, using: &local) { try apply(pick(&local, count: m.count, plain: true), tx, &m, &n, &local) }
                    throw Rollback()
                default:
                    try apply(kind, tx, &m, &n, &local)
                    while Int.random(in: 0..<3, using: &local) == 0 { try apply(pick(&local, count: m.count, plain: true), tx, &m, &n, &local) }
                }
            }
            mirror = m
            next = n
        } catch is Rollback {}
        return kind
    }

    /// A kind, leaning towards adds when few objects are left and deletes when many; `plain`:
    /// a write inside a transaction (not a rollback or an empty commit).
    static func pick(_ rng: inout SeededRandom, count: Int, plain: Bool = false) -> Write {
        if count < 30, Bool.random(using: &rng) { return .add }
        if count > 180, Bool.random(using: &rng) { return .delete }
        let weighted: [(Write, Int)] = [
            (.add, 8), (.delete, 7), (.rekeyLowest, 12), (.rekeyRandom, 6), (.modified, 12), (.all, 5), (.updateInPlace, 5),
            (.readdSameKey, 4), (.deleteWhere, 1), (.many, 2), (.rollback, plain ? 0 : 5), (.empty, plain ? 0 : 3),
        ]
        var r = Int.random(in: 0..<weighted.reduce(0) { $0 + $1.1 }, using: &rng)
        for (kind, weight) in weighted {
            if r < weight { return kind }
            r -= weight
        }
        return .add
    }

    /// One indexed field of `object` given a new random value (or, now and then, none).
    static func changeOneField(_ object: inout Shelved, _ rng: inout SeededRandom) {
        let other = Shelved.make(object.id, &rng)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: object.shelf = other.shelf
        case 1: object.title = other.title
        case 2: object.weight = other.weight
        case 3: object.due = other.due
        case 4: object.code = other.code
        default: break
        }
    }

    /// Applies one write to the transaction and to the mirror `m`.
    static func apply(_ kind: Write, _ tx: Transaction, _ m: inout [Int: Shelved], _ next: inout Int, _ rng: inout SeededRandom) throws {
        func randomKey() -> Int? { m.isEmpty ? nil : m.keys.sorted()[Int.random(in: 0..<m.count, using: &rng)] }
        func rekey(_ key: Int) throws {
            guard var object = m.removeValue(forKey: key) else { return }
            try tx.delete(object)
            object.id = next
            next += 1
            try tx.add(object)
            m[object.id] = object
        }
        switch kind {
        case .add:
            let object = Shelved.make(next, &rng)
            next += 1
            try tx.add(object)
            m[object.id] = object
        case .delete:
            guard let key = randomKey() else { return }
            _ = try tx.delete(Shelved.self, forPrimaryKey: key)
            m[key] = nil
        case .rekeyLowest:
            if let key = m.keys.min() { try rekey(key) }
        case .rekeyRandom:
            if let key = randomKey() { try rekey(key) }
        case .modified, .all:
            guard let key = randomKey(), var object = m[key] else { return }
            if Int.random(in: 0..<4, using: &rng) == 0 { object = Shelved.make(key, &rng) } else { changeOneField(&object, &rng) }
            try tx.add(object, update: kind == .modified ? .modified : .all)
            m[key] = object
        case .updateInPlace:
            guard let key = randomKey() else { return }
            let delta = Int.random(in: -3...3, using: &rng)
            m[key] = try tx.update(Shelved.self, forPrimaryKey: key) { $0.shelf += delta }
        case .readdSameKey:
            guard let key = randomKey(), let old = m[key] else { return }
            try tx.delete(old)
            var object = Shelved.make(key, &rng)
            if Bool.random(using: &rng) { object = old }
            try tx.add(object)
            m[key] = object
        case .deleteWhere:
            let below = Int.random(in: -4...0, using: &rng)
            let deleted = try tx.delete(where: Shelved.self, "shelf < %@", below)
            let gone = m.values.filter { $0.shelf < below }.map(\.id)
            guard deleted == gone.count else { throw CardWorkload.Mismatch("\(deleted) deleted where \(gone.count) matched") }
            for key in gone { m[key] = nil }
        case .many:
            let count = Int.random(in: 8...30, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let added = (0..<count).map { Shelved.make(next + $0, &rng) }
                next += count
                try tx.add(added)
                for object in added { m[object.id] = object }
            case 1:
                for _ in 0..<count {
                    guard let key = randomKey() else { break }
                    _ = try tx.delete(Shelved.self, forPrimaryKey: key)
                    m[key] = nil
                }
            default:
                for _ in 0..<count { if let key = m.keys.min() { try rekey(key) } }
            }
        case .rollback, .empty:
            break
        }
    }
}
