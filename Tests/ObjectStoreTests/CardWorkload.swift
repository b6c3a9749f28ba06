import Foundation
import Locking
import TestSupport
@testable import ObjectStore

/// The model the observer workloads write: indexed fields (so filters and sorts go through
/// the equality and ordered indexes), few distinct names and scores (so sorts have ties, which
/// slot order breaks), an optional field (nulls sort first).
struct Card: StoreObject, Hashable {
    static var primaryKey: KeyPath<Card, Int> { \.id }
    static var indexedProperties: [String] { ["name", "group", "score"] }
    var id: Int
    var name: String
    var group: Int
    var score: Int
    var note: String?
}

/// Random commits of every kind of write against a mirror of what the store holds: adds,
/// deletes, re-keyings (an object deleted and added again, same fields, under a new key),
/// `.modified` and `.all` upserts, renames that move an object in a sort, a field changed in
/// place, an object deleted and added back under its own key, deletions by query, many objects
/// at once, rollbacks and empty commits.
///
/// The mirror is replaced at the end of each transaction's block (the store's write lock is
/// held then, so with several writers it is always the store's newest version).
final class CardWorkload: @unchecked Sendable {
    enum Kind: String, CaseIterable {
        case add, delete, rekeyLowest, rekeyRandom, modified, all, rename, updateInPlace, readdSameKey
        case upsertNew, deleteWhere, many, rollback, empty
    }

    struct Rollback: Error {}
    /// The store did not hold what the mirror says (thrown out of the transaction, which
    /// then commits nothing).
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private let lock = Lock()
    private var mirror: [Int: Card] = [:]
    private var nextKey = 0
    private var counts: [Kind: Int] = [:]

    /// What the store holds, by key.
    var objects: [Int: Card] { lock.withLock { mirror } }
    /// How many commits of each kind were made (rollbacks and empty ones included).
    var kinds: [Kind: Int] { lock.withLock { counts } }

    static func entry(_ id: Int, _ rng: inout SeededRandom) -> Card {
        Card(id: id, name: name(&rng), group: Int.random(in: 0..<5, using: &rng), score: Int.random(in: 0..<50, using: &rng),
              note: Int.random(in: 0..<3, using: &rng) == 0 ? nil : "n\(Int.random(in: 0..<5, using: &rng))")
    }

    static func name(_ rng: inout SeededRandom) -> String {
        ["ant", "bee", "cat", "dog", "eel"][Int.random(in: 0..<5, using: &rng)] + "\(Int.random(in: 0..<6, using: &rng))"
    }

    /// Adds `count` objects with keys from 0 in one commit.
    func fill(_ store: Store, count: Int, _ rng: inout SeededRandom) throws {
        try store.write { tx in
            var m = lock.withLock { mirror }
            var next = lock.withLock { nextKey }
            for _ in 0..<count {
                let e = Self.entry(next, &rng)
                try tx.add(e)
                m[e.id] = e
                next += 1
            }
            lock.withLock { (mirror, nextKey) = (m, next) }
        }
    }

    /// One write transaction of a random kind (a rollback throws inside the transaction and
    /// is caught here). Returns the kind.
    @discardableResult
    func commit(_ store: Store, _ rng: inout SeededRandom) throws -> Kind {
        let kind = Self.pick(&rng, count: lock.withLock { mirror.count })
        var seed = SeededRandom(seed: rng.next())
        do {
            try store.write { tx in
                var m = lock.withLock { mirror }
                var next = lock.withLock { nextKey }
                switch kind {
                case .empty:
                    return
                case .rollback:
                    for _ in 0..<Int.random(in: 1...3, using: &seed) {
                        try Self.apply(Self.pick(&seed, count: m.count, plain: true), tx, &m, &next, &seed)
                    }
                    throw Rollback()
                default:
                    try Self.apply(kind, tx, &m, &next, &seed)
                    // Sometimes more writes of other kinds in the same commit.
                    while Int.random(in: 0..<3, using: &seed) == 0 {
                        try Self.apply(Self.pick(&seed, count: m.count, plain: true), tx, &m, &next, &seed)
                    }
                }
                lock.withLock { (mirror, nextKey) = (m, next) }
            }
        } catch is Rollback {}
        lock.withLock { counts[kind, default: 0] += 1 }
        return kind
    }

    /// A kind, leaning towards adds when few objects are left and deletes when many.
    /// `plain`: not a rollback or an empty commit (a write inside a transaction).
    static func pick(_ rng: inout SeededRandom, count: Int, plain: Bool = false) -> Kind {
        if count < 25, Int.random(in: 0..<2, using: &rng) == 0 { return .add }
        if count > 130, Int.random(in: 0..<2, using: &rng) == 0 { return .delete }
        let weighted: [(Kind, Int)] = [
            (.add, 8), (.delete, 8), (.rekeyLowest, 12), (.rekeyRandom, 6), (.modified, 10), (.all, 5), (.rename, 8),
            (.updateInPlace, 5), (.readdSameKey, 3), (.upsertNew, 3), (.deleteWhere, 1), (.many, 2),
            (.rollback, plain ? 0 : 5), (.empty, plain ? 0 : 3),
        ]
        var r = Int.random(in: 0..<weighted.reduce(0) { $0 + $1.1 }, using: &rng)
        for (kind, weight) in weighted {
            if r < weight { return kind }
            r -= weight
        }
        return .add
    }

    /// Applies one write to the transaction and to the mirror `m`.
    static func apply(_ kind: Kind, _ tx: Transaction, _ m: inout [Int: Card], _ next: inout Int, _ rng: inout SeededRandom) throws {
        func randomKey() -> Int? { m.isEmpty ? nil : Array(m.keys)[Int.random(in: 0..<m.count, using: &rng)] }
        func rekey(_ key: Int) throws {
            guard var e = m[key] else { return }
            try tx.delete(e)
            m[key] = nil
            e.id = next
            next += 1
            try tx.add(e)
            m[e.id] = e
        }
        switch kind {
        case .add:
            let e = entry(next, &rng)
            next += 1
            try tx.add(e)
            m[e.id] = e
        case .delete:
            guard let key = randomKey() else { return }
            if try !tx.delete(Card.self, forPrimaryKey: key) { throw Mismatch("key \(key) was not stored") }
            m[key] = nil
        case .rekeyLowest:
            if let key = m.keys.min() { try rekey(key) }
        case .rekeyRandom:
            if let key = randomKey() { try rekey(key) }
        case .modified, .all:
            guard let key = randomKey(), var e = m[key] else { return }
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: e.score = Int.random(in: 0..<50, using: &rng)
            case 1: e.group = Int.random(in: 0..<5, using: &rng)
            case 2: e.note = Bool.random(using: &rng) ? nil : "n\(Int.random(in: 0..<5, using: &rng))"
            case 3: e = entry(key, &rng)
            default: break   // the same fields: nothing changes for `.modified`
            }
            try tx.add(e, update: kind == .modified ? .modified : .all)
            m[key] = e
        case .rename:
            guard let key = randomKey() else { return }
            m[key]!.name = name(&rng)
            try tx.add(m[key]!, update: .modified)
        case .updateInPlace:
            guard let key = randomKey() else { return }
            let delta = Int.random(in: -5...5, using: &rng)
            let e = try tx.update(Card.self, forPrimaryKey: key) { $0.score = max(0, $0.score + delta) }
            m[key] = e
        case .readdSameKey:
            guard let key = randomKey(), let old = m[key] else { return }
            try tx.delete(old)
            var e = entry(key, &rng)
            if Bool.random(using: &rng) { e = old }
            try tx.add(e)
            m[key] = e
        case .upsertNew:
            let e = entry(next, &rng)
            next += 1
            try tx.add(e, update: Bool.random(using: &rng) ? .modified : .all)
            m[e.id] = e
        case .deleteWhere:
            let limit = Int.random(in: 1...4, using: &rng)
            let deleted = try tx.delete(where: Card.self, "score < %@", limit)
            let gone = m.values.filter { $0.score < limit }.map(\.id)
            if deleted != gone.count { throw Mismatch("\(deleted) deleted where \(gone.count) matched") }
            for key in gone { m[key] = nil }
        case .many:
            let n = Int.random(in: 8...30, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let added = (0..<n).map { i in entry(next + i, &rng) }
                next += n
                try tx.add(added)
                for e in added { m[e.id] = e }
            case 1:
                for _ in 0..<n {
                    guard let key = randomKey() else { break }
                    _ = try tx.delete(Card.self, forPrimaryKey: key)
                    m[key] = nil
                }
            default:
                for _ in 0..<n { if let key = m.keys.min() { try rekey(key) } }
            }
        case .rollback, .empty:
            break
        }
    }
}

extension CardWorkload {
    /// An observed query of each kind: none, filters (a scan, the equality index, the ordered
    /// index), sorts (through the ordered index, by two keys, with nulls), a filter and a sort,
    /// limits (sorted and not), `distinct` (alone and after a sort).
    static func queries(_ store: Store) -> [(label: String, results: Results<Card>)] {
        let all = store.objects(Card.self)
        return [
            ("all", all),
            ("filter", all.filter("group == 1 OR score < 10")),
            ("indexed filter", all.filter("group IN {0, 2}")),
            ("range filter", all.filter("score BETWEEN {10, 30}")),
            ("sorted", all.sorted(byKeyPath: "name")),
            ("two keys", all.sorted(by: [ObjectStore.SortDescriptor(keyPath: "score", ascending: false), ObjectStore.SortDescriptor(keyPath: "name")])),
            ("nulls", all.sorted(byKeyPath: "note")),
            ("filtered sorted", all.filter("score >= 20").sorted(byKeyPath: "score")),
            ("prefix", all.sorted(byKeyPath: "name").prefix(10)),
            ("limit", all.limit(25)),
            ("distinct", all.distinct(by: ["group"])),
            ("sorted distinct", all.sorted(byKeyPath: "score").distinct(by: ["name"])),
        ]
    }
}
