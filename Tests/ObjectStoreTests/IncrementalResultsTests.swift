import Differentiator
import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// Observed results after a commit that touched a few objects are brought up to date by placing
/// those objects (`IncrementalResults`), not by evaluating the query again. Checked against the
/// full evaluation on random commits: the same objects in the same order, and a change set that
/// turns the old list into the new one.
@Suite(.resourceCheck) struct IncrementalResultsTests {
    struct Dish: StoreObject, Equatable {
        static var primaryKey: KeyPath<Dish, Int> { \.id }
        var id: Int
        var name: String
        var price: Int
        var rating: Int?
    }

    static func dish(_ id: Int, _ rng: inout SeededRandom) -> Dish {
        Dish(id: id, name: ["a", "b", "c", "d"][Int.random(in: 0..<4, using: &rng)] + "\(Int.random(in: 0..<50, using: &rng))",
             price: Int.random(in: 0..<40, using: &rng), rating: Bool.random(using: &rng) ? nil : Int.random(in: 0..<5, using: &rng))
    }

    /// Sees every commit and compares the incremental step with the full evaluation for each
    /// observed query.
    final class Checker: CommitObserver, @unchecked Sendable {
        let queries: [Results<Dish>]
        var previous: [EvaluatedResults]
        var applied = 0, commits = 0
        var failures: [String] = []

        init(_ queries: [Results<Dish>], at snapshot: Snapshot) {
            self.queries = queries
            previous = queries.map { $0.pinned(to: snapshot).evaluate(in: snapshot) }
        }

        func committed(_ commit: CommitChanges) -> (() -> Void)? {
            commits += 1
            let schema = queries[0].schema
            for (i, query) in queries.enumerated() {
                let full = query.pinned(to: commit.new).evaluate(in: commit.new)
                defer { previous[i] = full }
                guard let changes = commit.tables[schema.name],
                      let step = IncrementalResults.apply(previous: previous[i], pipeline: query.pipeline, schema: schema,
                                                          changes: changes, commit: commit) else { continue }
                applied += 1
                if step.slots != full.slots { failures.append("query \(i), commit \(commits): slots differ") }
                // The change set turns the old keys into the new ones.
                var keys = previous[i].primaryKeys(schema)
                let newKeys = full.primaryKeys(schema)
                for d in step.change.deletions.reversed() { keys.remove(at: d) }
                for p in step.change.insertions { keys.insert(newKeys[p], at: min(p, keys.count)) }
                if keys != newKeys { failures.append("query \(i), commit \(commits): the change set does not apply") }
                for p in step.change.modifications where changes.modified[newKeys[p]] == nil {
                    failures.append("query \(i), commit \(commits): position \(p) reported modified")
                }
                // One object touched: as few deletions and insertions as evaluating and diffing
                // reports (the least there can be; when the object moved by one place, which of
                // the two swapped objects is the one that moved is a tie either may break).
                let touched = changes.inserted.count + changes.deleted.count + changes.modified.count
                if touched == 1 {
                    let expected = ListDifference(from: previous[i].primaryKeys(schema), to: newKeys) { changes.modified[$0] != nil }
                    if expected.deletions.count != step.change.deletions.count || expected.insertions.count != step.change.insertions.count {
                        failures.append("query \(i), commit \(commits): \(step.change) against \(expected)")
                    }
                }
            }
            return nil
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func placingTheTouchedObjectsAgreesWithEvaluatingAgain(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let store = Store()
        var next = 0
        try store.write { tx in
            for _ in 0..<600 {
                try tx.add(Self.dish(next, &rng))
                next += 1
            }
        }
        let all = store.objects(Dish.self)
        let queries = [
            all,
            all.filter("price < 20"),
            all.sorted(byKeyPath: "price"),
            all.filter("rating != nil").sorted(byKeyPath: "price", ascending: false),
            all.sorted(by: [ObjectStore.SortDescriptor(keyPath: "name"), ObjectStore.SortDescriptor(keyPath: "rating", ascending: false)]),
            all.filter("name BEGINSWITH 'a' OR price > 30").sorted(byKeyPath: "rating"),
        ]
        let checker = Checker(queries, at: store.core.snapshot())
        store.core.register(checker) { _ in nil }
        defer { store.core.unregister(checker) }
        for _ in 0..<60 {
            try store.write { tx in
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let key = Int.random(in: 0..<next, using: &rng)
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0:
                        try tx.add(Self.dish(next, &rng))
                        next += 1
                    case 1:
                        if let dish = tx.object(ofType: Dish.self, forPrimaryKey: key) { try tx.delete(dish) }
                    default:
                        var dish = Self.dish(key, &rng)
                        if Bool.random(using: &rng), let old = tx.object(ofType: Dish.self, forPrimaryKey: key) {
                            dish.price = old.price   // a change that keeps the sort's order
                            dish.name = old.name
                        }
                        try tx.add(dish, update: .modified)
                    }
                }
            }
        }
        #expect(checker.failures.isEmpty, "\(checker.failures.prefix(5))")
        #expect(checker.commits == store.version - 1)   // every commit but the first (a write that changed nothing commits nothing)
        #expect(checker.applied > checker.commits * queries.count * 3 / 4)
    }

    /// What the observer of 100,000… gets from a one-object write, here on a smaller scale: a
    /// modification in place, and the moved object as a deletion and an insertion.
    @Test func anObserverGetsTheChangeOfOneObject() throws {
        let store = Store()
        try store.write { tx in for id in 0..<1_000 { try tx.add(Dish(id: id, name: "d\(id)", price: id, rating: nil)) } }
        let seen = UncheckedBox<[String]>([])
        let subscription = store.objects(Dish.self).sorted(byKeyPath: "price").observe(on: ImmediateScheduler.instance)
            .subscribe(onNext: { change in
                if case .update(let r, let d, let i, let m) = change { seen.value.append("\(r.count) \(d) \(i) \(m) \(r[500].id)") }
            })
        defer { subscription.dispose() }
        try store.write { tx in try tx.add(Dish(id: 500, name: "renamed", price: 500, rating: 1), update: .modified) }
        try store.write { tx in try tx.add(Dish(id: 10, name: "d10", price: 2_000, rating: nil), update: .modified) }
        #expect(seen.value == ["1000 [] [] [500] 500", "1000 [10] [999] [] 501"])
    }
}
