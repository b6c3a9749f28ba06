import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore


struct Item: StoreObject, Equatable {
    static var primaryKey: KeyPath<Item, Int> { \.id }
    static var indexedProperties: [String] { ["group"] }
    var id: Int
    var group: Int
    var score: Double
    var label: String
    var flag: Bool
    var opt: Int?
    var tags: [Int]
}

/// A query with its brute-force twin.
struct RandomQuery {
    var text: String
    var test: (Item) -> Bool
    var sort: ((Item, Item) -> Bool)?
}

enum Generator {
    static let labels = ["alpha", "Beta", "gamma", "ALPHA", "delta", "Épsilon", "beta"]

    static func item(_ id: Int, _ rng: inout SeededRandom) -> Item {
        Item(id: id, group: Int.random(in: 0..<5, using: &rng), score: Double(Int.random(in: 0..<100, using: &rng)) / 4,
             label: labels.randomElement(using: &rng)!, flag: Bool.random(using: &rng),
             opt: Bool.random(using: &rng) ? Int.random(in: 0..<10, using: &rng) : nil,
             tags: (0..<Int.random(in: 0..<4, using: &rng)).map { _ in Int.random(in: 0..<6, using: &rng) })
    }

    static func atom(_ rng: inout SeededRandom) -> RandomQuery {
        let g = Int.random(in: 0..<5, using: &rng)
        let s = Double(Int.random(in: 0..<100, using: &rng)) / 4
        let t = Int.random(in: 0..<6, using: &rng)
        let n = Int.random(in: 0..<4, using: &rng)
        switch Int.random(in: 0..<14, using: &rng) {
        case 0: return RandomQuery(text: "group == \(g)", test: { $0.group == g })
        case 1: return RandomQuery(text: "score < \(s)", test: { $0.score < s })
        case 2: return RandomQuery(text: "score >= \(s)", test: { $0.score >= s })
        case 3: return RandomQuery(text: "flag == true", test: { $0.flag })
        case 4: return RandomQuery(text: "opt == nil", test: { $0.opt == nil })
        case 5: return RandomQuery(text: "opt > \(n)", test: { ($0.opt ?? Int.min) > n })
        case 6: return RandomQuery(text: "ANY tags == \(t)", test: { $0.tags.contains(t) })
        case 7: return RandomQuery(text: "tags.@count > \(n)", test: { $0.tags.count > n })
        case 8: return RandomQuery(text: "label BEGINSWITH[c] 'a'", test: { $0.label.lowercased().hasPrefix("a") })
        case 9: return RandomQuery(text: "label ==[cd] 'epsilon'", test: { $0.label == "Épsilon" })
        case 10: return RandomQuery(text: "group IN {\(g), \(t % 5)}", test: { $0.group == g || $0.group == t % 5 })
        case 11: return RandomQuery(text: "score BETWEEN {\(s), \(s + 10)}", test: { $0.score >= s && $0.score <= s + 10 })
        case 12: return RandomQuery(text: "ALL tags < \(t)", test: { $0.tags.allSatisfy { $0 < t } })
        default: return RandomQuery(text: "label LIKE '*a'", test: { $0.label.hasSuffix("a") })
        }
    }

    static func query(_ rng: inout SeededRandom, depth: Int = 0) -> RandomQuery {
        if depth > 1 || Bool.random(using: &rng) { return atom(&rng) }
        let a = query(&rng, depth: depth + 1), b = query(&rng, depth: depth + 1)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return RandomQuery(text: "(\(a.text)) AND (\(b.text))", test: { a.test($0) && b.test($0) })
        case 1: return RandomQuery(text: "(\(a.text)) OR (\(b.text))", test: { a.test($0) || b.test($0) })
        default: return RandomQuery(text: "NOT (\(a.text))", test: { !a.test($0) })
        }
    }
}

/// The brute-force twin of the store: objects in store order.
struct Model {
    var items: [Item] = []
    mutating func upsert(_ item: Item) {
        if let i = items.firstIndex(where: { $0.id == item.id }) { items[i] = item } else { items.append(item) }
    }
    mutating func delete(_ id: Int) { items.removeAll { $0.id == id } }

    /// One random edit made in `tx` and mirrored here: for a roll (0–9) below `inserts`, or when
    /// there is nothing to edit, a new item with id `nextId`; below `changes`, an item changed by
    /// `change` (given the item and a freshly generated one with its id); otherwise a delete.
    mutating func randomEdit(in tx: Transaction, _ rng: inout SeededRandom, nextId: inout Int,
                             inserts: Int, changes: Int,
                             change: (inout Item, Item, inout SeededRandom) -> Void) throws {
        let roll = Int.random(in: 0..<10, using: &rng)
        if roll < inserts || items.isEmpty {
            let item = Generator.item(nextId, &rng)
            nextId += 1
            try tx.add(item)
            upsert(item)
        } else if roll < changes {
            var item = items.randomElement(using: &rng)!
            let fresh = Generator.item(item.id, &rng)
            change(&item, fresh, &rng)
            try tx.add(item, update: .modified)
            upsert(item)
        } else {
            let item = items.randomElement(using: &rng)!
            try tx.delete(item)
            delete(item.id)
        }
    }
}

/// An `.update`'s three arrays, as delivered.
struct DeliveredIndices: Equatable {
    var deletions: [Int]
    var insertions: [Int]
    var modifications: [Int]
}

@Suite(.resourceCheck) struct RandomizedTests {
    @Test(arguments: [1, 2, 3] as [UInt64], StoreBackend.allCases)
    func queriesAndChangeSetsMatchBruteForce(seed: UInt64, backend: StoreBackend) throws {
        var rng = SeededRandom(seed: seed)
        let store = try backend.makeStore()
        var model = Model()
        var observed: [(query: RandomQuery, results: Results<Item>, previous: [Item], changes: UncheckedBox<[(Results<Item>, DeliveredIndices)]>, subscription: Disposable)] = []
        for _ in 0..<4 {
            var q = Generator.query(&rng)
            var results = store.objects(Item.self).filter(q.text)
            if Bool.random(using: &rng) {
                results = results.sorted(by: [SortDescriptor(keyPath: "score", ascending: false), SortDescriptor(keyPath: "label")])
                q.sort = { a, b in a.score != b.score ? a.score > b.score : a.label < b.label }
            }
            let box = UncheckedBox<[(Results<Item>, DeliveredIndices)]>([])
            let subscription = results.observe(on: ImmediateScheduler.instance).subscribe(onNext: { change in
                if case .update(let r, let d, let i, let m) = change { box.value.append((r, DeliveredIndices(deletions: d, insertions: i, modifications: m))) }
            })
            observed.append((q, results, [], box, subscription))
        }
        func expected(_ q: RandomQuery) -> [Item] {
            let matching = model.items.filter(q.test)
            guard let sort = q.sort else { return matching }
            // Stable sort by the keys, ties in store order.
            return matching.enumerated().sorted { x, y in
                if sort(x.element, y.element) { return true }
                if sort(y.element, x.element) { return false }
                return x.offset < y.offset
            }.map(\.element)
        }
        for k in observed.indices { observed[k].previous = expected(observed[k].query) }

        var nextId = 0
        for _ in 0..<120 {
            // One random transaction.
            let operations = Int.random(in: 1...4, using: &rng)
            var pending = model
            try store.write { tx in
                for _ in 0..<operations {
                    try pending.randomEdit(in: tx, &rng, nextId: &nextId, inserts: 4, changes: 8) { item, fresh, rng in
                        switch Int.random(in: 0..<4, using: &rng) {
                        case 0: item.score = fresh.score
                        case 1: item.group = fresh.group; item.flag = fresh.flag
                        case 2: item.tags = fresh.tags; item.opt = fresh.opt
                        default: item.label = fresh.label
                        }
                    }
                }
            }
            model = pending
            #expect(store.objects(Item.self).toArray() == model.items)

            // Fresh random queries against brute force.
            for _ in 0..<3 {
                let q = Generator.query(&rng)
                #expect(store.objects(Item.self).filter(q.text).toArray() == model.items.filter(q.test), "\(q.text)")
            }

            // Every observer got exactly the right change set, or nothing.
            for k in observed.indices {
                let old = observed[k].previous
                let new = expected(observed[k].query)
                #expect(observed[k].results.toArray() == new, "\(observed[k].query.text)")
                let changed = old.map(\.id) != new.map(\.id) || zip(old, new).contains { $0 != $1 }
                let events = observed[k].changes.value
                observed[k].changes.value = []
                if !changed {
                    #expect(events.isEmpty, "no event expected for \(observed[k].query.text)")
                } else {
                    #expect(events.count == 1)
                    if let (results, set) = events.first {
                        #expect(results.toArray() == new)
                        #expect(set.deletions == set.deletions.sorted() && set.insertions == set.insertions.sorted() && set.modifications == set.modifications.sorted())
                        var array = old
                        for i in set.deletions.reversed() { array.remove(at: i) }
                        for j in set.insertions { array.insert(new[j], at: j) }
                        let differing = array.indices.filter { array[$0] != new[$0] }
                        #expect(differing == set.modifications, "modifications are exactly the changed objects")
                        for j in set.modifications { array[j] = new[j] }
                        #expect(array == new)
                    }
                }
                observed[k].previous = new
            }
        }
        #expect(store._checkInvariants())
        for entry in observed { entry.subscription.dispose() }
    }

    @Test(arguments: StoreBackend.allCases) func sortedDistinctLimitMatchBruteForce(_ backend: StoreBackend) throws {
        var rng = SeededRandom(seed: 42)
        let store = try backend.makeStore()
        let items = (0..<300).map { Generator.item($0, &rng) }
        try store.write { try $0.add(items) }
        for _ in 0..<40 {
            let q = Generator.query(&rng)
            let limit = Int.random(in: 0..<50, using: &rng)
            let got = store.objects(Item.self).filter(q.text).sorted(byKeyPath: "group").distinct(by: ["group", "flag"]).prefix(limit).toArray()
            var seen = Set<String>()
            let want = items.filter(q.test).enumerated()
                .sorted { $0.element.group != $1.element.group ? $0.element.group < $1.element.group : $0.offset < $1.offset }
                .map(\.element)
                .filter { seen.insert("\($0.group)-\($0.flag)").inserted }
                .prefix(limit)
            #expect(got == Array(want), "\(q.text)")
        }
    }
}
