import Foundation
import Locking
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// Objects observed one by one (`Store.observe(_:forPrimaryKey:on:)`) through random sequences
/// of every kind of write, aimed at the observed objects half the time: adds, deletes,
/// re-keyings of the observed objects and of their neighbours (the lowest key first, which
/// leaves deleted slots behind until the table is numbered again), `.modified` and `.all`
/// upserts, renames, updates in place, an object deleted and added back under its own key in
/// one commit, a deleted object added back under its key by a later commit, many objects at
/// once, deletions by query, rollbacks and empty commits; on a file, compactions now and then.
/// Keys not stored are observed too (a deleted object's, the next new key).
///
/// Each transaction's writes are recorded, as the API describes them, into what it did to each
/// key: inserted, deleted, or modified in which fields (a `.modified` write the fields whose
/// values differ, none when none does; an `.all` write every field but the key; an object
/// deleted and added back in the same transaction every field). After every commit each
/// observer must have been sent exactly that: for a deletion `.deleted` and completion, then
/// nothing; for a modification one `.change` with the object as a fresh read gives it and the
/// changed properties, in field order, with their values before and after; nothing for a
/// commit that left the object alone (or inserted it), nor for a rollback or an empty commit.
/// An observer on a queue must be sent the same events in the same order.
///
/// `REACTIVEMVVM_OBJECT_COMMITS` sets the number of commits in all (default 1,200, split
/// between the backends, in rounds of 300 on a new store each); `REACTIVEMVVM_OBJECT_SEED` the
/// seed of the first round (a failure names the seed of its round).
@Suite(.resourceCheck) struct ObjectObservationRandomizedTests {
    static let environment = ProcessInfo.processInfo.environment
    static let commits = Int(environment["REACTIVEMVVM_OBJECT_COMMITS"] ?? "") ?? 1_200
    static let firstSeed = UInt64(environment["REACTIVEMVVM_OBJECT_SEED"] ?? "") ?? 20_261_401
    static let roundLength = 300
    /// `Card`'s fields, in the order of their ordinals.
    static let fields = ["id", "name", "group", "score", "note"]

    @Test(arguments: StoreBackend.allCases)
    func observedObjectsAreSentWhatEachCommitDidToThem(_ backend: StoreBackend) throws {
        #expect(try ObjectSchema.of(Card.self).fields.map(\.name) == Self.fields)
        let total = max(1, Self.commits / StoreBackend.allCases.count)
        let start = Date()
        var tally = Tally()
        guard let done = try runSeededRounds(total: total, roundLength: Self.roundLength, firstSeed: Self.firstSeed,
                                              label: backend.testDescription, { seed, count in
            try Self.round(backend, seed: seed, commits: count, tally: &tally)
        }) else { return }
        if total >= 300 {
            // Every kind of event was sent and every kind of write made, many times.
            #expect(tally.changes > 0 && tally.deletions > 0 && tally.quiet > 0 && tally.insertedWhileObserved > 0 && tally.readdedInOneCommit > 0)
            #expect(tally.kinds == Set(Write.allCases), "only \(tally.kinds.map(\.rawValue).sorted()) were written")
            #expect(tally.renumbered > 0, "no commit numbered the rows again")
            if backend == .file { #expect(tally.compacted > 0) }
        }
        if Self.commits > 10_000 {
            print("ObjectObservationRandomizedTests: \(done) commits \(backend.testDescription): \(tally.changes) changes, "
                  + "\(tally.deletions) deletions, \(tally.quiet) commits that sent an observer nothing, "
                  + "\(tally.renumbered) renumberings, \(tally.compacted) compactions in \(Int(Date().timeIntervalSince(start))) s")
        }
    }

    /// What a run saw, over its rounds.
    struct Tally {
        var changes = 0, deletions = 0, quiet = 0, insertedWhileObserved = 0, readdedInOneCommit = 0, renumbered = 0, compacted = 0
        var kinds: Set<Write> = []
    }

    /// What one transaction did to one key.
    enum Net: Equatable {
        case inserted, deleted
        /// The ordinals of the fields reported changed.
        case modified(Set<Int>)
    }

    /// The kinds of write.
    enum Write: String, CaseIterable {
        case add, delete, rekeyLowest, rekeyRandom, modified, all, rename, updateInPlace, readdSameKey, restore
        case upsertNew, deleteWhere, many, rollback, empty
    }

    /// Thrown inside a transaction to roll it back.
    struct Rollback: Error {}

    /// One transaction's writes, by key, as the API describes them.
    struct Journal {
        var net: [Int: Net] = [:]

        /// Records an insertion of `key`.
        mutating func inserted(_ key: Int) {
            // Deleted and added back in one transaction: a change of every field.
            net[key] = net[key] == .deleted ? .modified(Set(0..<fields.count)) : .inserted
        }

        /// Records a write of a stored `key` reporting the fields `changed`.
        mutating func updated(_ key: Int, fields changed: Set<Int>) {
            switch net[key] {
            case .inserted?: return
            case .modified(let earlier)?: net[key] = .modified(earlier.union(changed))
            case .deleted?: preconditionFailure("an update of a deleted object")
            case nil: if !changed.isEmpty { net[key] = .modified(changed) }
            }
        }

        /// Records a deletion of `key`.
        mutating func deleted(_ key: Int) {
            net[key] = net[key] == .inserted ? nil : .deleted
        }
    }

    /// The ordinals of the fields whose values differ.
    static func differing(_ a: Card, _ b: Card) -> Set<Int> {
        Set(fields.indices.filter { value(a, fields[$0]) != value(b, fields[$0]) })
    }

    /// The value of `field` in `card`, as text.
    static func value(_ card: Card, _ field: String) -> String? {
        switch field {
        case "id": return "\(card.id)"
        case "name": return card.name
        case "group": return "\(card.group)"
        case "score": return "\(card.score)"
        default: return card.note
        }
    }

    /// Whether a property's value (`Any?`) is `card`'s value of `field`.
    static func holds(_ value: Any?, _ card: Card, _ field: String) -> Bool {
        switch field {
        case "name", "note": return (value as? String) == Self.value(card, field)
        default: return (value as? Int).map { "\($0)" } == Self.value(card, field)
        }
    }

    /// An event, as text for a failure.
    static func describe(_ change: ObjectChange<Card>) -> String {
        switch change {
        case .change(let card, let properties):
            return "change(\(card), \(properties.map { "\($0.name): \(String(describing: $0.oldValue)) -> \(String(describing: $0.newValue))" }))"
        case .deleted: return "deleted"
        case .error(let error): return "error(\(error))"
        }
    }

    /// Two observers of one key, on the immediate scheduler and on a queue.
    final class Watch: @unchecked Sendable {
        let key: Int
        private let lock = Lock()
        private var pending: [ObjectChange<Card>] = []
        private var completions = 0
        private var immediateLog: [String] = []
        private var queueLog: [String] = []
        private var subscriptions: [Disposable] = []
        /// Whether the deletion was sent.
        private(set) var ended = false

        init(_ store: Store, key: Int, queue: ImmediateSchedulerType) {
            self.key = key
            subscriptions.append(store.observe(Card.self, forPrimaryKey: key, on: ImmediateScheduler.instance).subscribe(
                onNext: { [self] change in lock.withLock { pending.append(change); immediateLog.append(describe(change)) } },
                onCompleted: { [self] in lock.withLock { completions += 1; immediateLog.append("completed") } }))
            subscriptions.append(store.observe(Card.self, forPrimaryKey: key, on: queue).subscribe(
                onNext: { [self] change in lock.withLock { queueLog.append(describe(change)) } },
                onCompleted: { [self] in lock.withLock { queueLog.append("completed") } }))
        }

        /// Stops both observers; what is wrong with the queue's events (everything sent to the
        /// queue must have been delivered).
        func end() -> [String] {
            for s in subscriptions { s.dispose() }
            return lock.withLock {
                queueLog == immediateLog ? [] : ["object \(key): sent \(queueLog.suffix(3)) on a queue, \(immediateLog.suffix(3)) at once"]
            }
        }

        /// What is wrong with the events since the last check, given what the commit did to the
        /// key and the object before and after it.
        func check(_ net: Net?, before: Card?, after: Card?, tally: inout Tally) -> [String] {
            let (events, completions) = lock.withLock { () -> ([ObjectChange<Card>], Int) in
                defer { pending = [] }
                return (pending, self.completions)
            }
            let name = "object \(key)"
            if ended { return events.isEmpty && completions == 1 ? [] : ["\(name): \(events.map(describe)) after its deletion"] }
            switch net {
            case nil, .inserted?:
                if net == .inserted { tally.insertedWhileObserved += 1 }
                tally.quiet += 1
                return events.isEmpty && completions == 0 ? [] : ["\(name): \(net == nil ? "untouched" : "inserted"), sent \(events.map(describe))"]
            case .deleted?:
                ended = true
                tally.deletions += 1
                guard events.count == 1, case .deleted = events[0], completions == 1 else {
                    return ["\(name): deleted, sent \(events.map(describe)) and \(completions) completions"]
                }
                return []
            case .modified(let changed)?:
                tally.changes += 1
                if changed.count == fields.count { tally.readdedInOneCommit += 1 }
                guard let before, let after else { return ["\(name): modified while not stored (the journal is wrong)"] }
                guard events.count == 1, completions == 0, case .change(let object, let properties) = events[0] else {
                    return ["\(name): modified \(changed.sorted().map { fields[$0] }), sent \(events.map(describe)) and \(completions) completions"]
                }
                var failures: [String] = []
                if object != after { failures.append("\(name): sent \(object), a fresh read gives \(after)") }
                let expected = changed.sorted().map { fields[$0] }
                if properties.map(\.name) != expected { failures.append("\(name): sent properties \(properties.map(\.name)), changed \(expected)") }
                for property in properties where fields.contains(property.name) {
                    if !holds(property.oldValue, before, property.name) || !holds(property.newValue, after, property.name) {
                        failures.append("\(name): \(property.name) sent from \(String(describing: property.oldValue)) to "
                                        + "\(String(describing: property.newValue)), was \(String(describing: value(before, property.name))) "
                                        + "and is \(String(describing: value(after, property.name)))")
                    }
                }
                return failures
            }
        }
    }

    /// A store filled with random cards, observed one by one, then `commits` random commits;
    /// returns what went wrong (stopping at the first commit that shows anything).
    static func round(_ backend: StoreBackend, seed: UInt64, commits: Int, tally: inout Tally) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let store = try backend.makeStore(objectTypes: [Card.self])
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "object-observation-randomized")
        var mirror: [Int: Card] = [:]
        var next = 0
        var gone: [Card] = []   // deleted objects, newest last, for `restore`
        try store.write { tx in
            for _ in 0..<Int.random(in: 30...120, using: &rng) {
                let card = CardWorkload.entry(next, &rng)
                try tx.add(card)
                mirror[next] = card
                next += 1
            }
        }
        let sorted = mirror.keys.sorted()
        var watches = [sorted[0], sorted[1], sorted[2], sorted.randomElement(using: &rng)!, sorted.randomElement(using: &rng)!, next, next + 1]
            .map { Watch(store, key: $0, queue: queue) }
        func drain() {
            let delivered = DispatchSemaphore(value: 0)
            _ = queue.schedule(()) { _ in
                delivered.signal()
                return Disposables.create()
            }
            delivered.wait()
        }
        var failures: [String] = []
        defer {
            drain()
            for w in watches { _ = w.end() }
        }

        for step in 0..<commits {
            let before = mirror
            let numbering = store.core.snapshot().tables["Card"]?.slotNumbering
            let watched = watches.map(\.key).filter { mirror[$0] != nil }
            let (kind, journal) = try commit(store, &mirror, &next, &gone, watched: watched, &rng)
            tally.kinds.insert(kind)
            var at = "commit \(step + 1) (\(kind.rawValue))"
            // A compaction moves the store to a new snapshot read from the file (new slots).
            if backend == .file, Int.random(in: 0..<60, using: &rng) == 0 {
                try store.compact()
                tally.compacted += 1
                at += ", compacted"
            }
            if store.core.snapshot().tables["Card"]?.slotNumbering != numbering { tally.renumbered += 1 }
            // What a fresh read of each observed object gives.
            for w in watches {
                let fresh = store.object(ofType: Card.self, forPrimaryKey: w.key)
                if fresh != mirror[w.key] { failures.append("\(at): object \(w.key) reads \(String(describing: fresh)), was written as \(String(describing: mirror[w.key]))") }
                failures += w.check(journal.net[w.key], before: before[w.key], after: fresh, tally: &tally).map { "\(at): \($0)" }
            }
            // Now and then an observer ends and another starts: on a deleted object's key (which
            // `restore` may add back), the next new key, the lowest key, or any stored one.
            for i in watches.indices where watches[i].ended || Int.random(in: 0..<40, using: &rng) == 0 {
                drain()
                failures += watches[i].end().map { "\(at): \($0)" }
                let key: Int
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: key = watches[i].key
                case 1: key = next
                case 2: key = mirror.keys.min() ?? next
                default: key = mirror.keys.randomElement(using: &rng) ?? next
                }
                watches[i] = Watch(store, key: key, queue: queue)
            }
            if !failures.isEmpty { return failures }
        }
        drain()
        for w in watches { failures += w.end() }
        watches = []
        return failures
    }

    /// One transaction of a random kind, mirrored in `mirror` and recorded in its journal;
    /// `watched`: the stored observed keys, which half the writes aim at.
    static func commit(_ store: Store, _ mirror: inout [Int: Card], _ next: inout Int, _ gone: inout [Card], watched: [Int],
                       _ rng: inout SeededRandom) throws -> (Write, Journal) {
        let kind = pick(&rng, count: mirror.count)
        var state = Writing(m: mirror, next: next, gone: gone, watched: watched)
        var local = SeededRandom(seed: rng.next())
        do {
            try store.write { tx in
                switch kind {
                case .empty: return
                case .rollback:
                    for _ in 0..<Int.random(in: 1...3, using: &local) { try state.apply(pick(&local, count: state.m.count, plain: true), tx, &local) }
                    throw Rollback()
                default:
                    try state.apply(kind, tx, &local)
                    while Int.random(in: 0..<3, using: &local) == 0 { try state.apply(pick(&local, count: state.m.count, plain: true), tx, &local) }
                }
            }
        } catch is Rollback {
            return (kind, Journal())
        }
        (mirror, next, gone) = (state.m, state.next, state.gone)
        return (kind, state.journal)
    }

    /// A kind, leaning towards adds when few objects are left and deletes when many.
    static func pick(_ rng: inout SeededRandom, count: Int, plain: Bool = false) -> Write {
        if count < 25, Bool.random(using: &rng) { return .add }
        if count > 130, Bool.random(using: &rng) { return .delete }
        let weighted: [(Write, Int)] = [
            (.add, 7), (.delete, 6), (.rekeyLowest, 12), (.rekeyRandom, 6), (.modified, 10), (.all, 5), (.rename, 7),
            (.updateInPlace, 5), (.readdSameKey, 4), (.restore, 4), (.upsertNew, 3), (.deleteWhere, 1), (.many, 2),
            (.rollback, plain ? 0 : 5), (.empty, plain ? 0 : 3),
        ]
        var r = Int.random(in: 0..<weighted.reduce(0) { $0 + $1.1 }, using: &rng)
        for (kind, weight) in weighted {
            if r < weight { return kind }
            r -= weight
        }
        return .add
    }

    /// The writes of one transaction: the objects as written so far, and the journal.
    struct Writing {
        var m: [Int: Card]
        var next: Int
        var gone: [Card]
        let watched: [Int]
        var journal = Journal()

        /// A stored key: an observed one half the time.
        mutating func someKey(_ rng: inout SeededRandom) -> Int? {
            let stored = watched.filter { m[$0] != nil }
            if !stored.isEmpty, Bool.random(using: &rng) { return stored.randomElement(using: &rng) }
            return m.isEmpty ? nil : m.keys.sorted()[Int.random(in: 0..<m.count, using: &rng)]
        }

        /// Adds a new object.
        mutating func add(_ card: Card, _ tx: Transaction) throws {
            try tx.add(card)
            journal.inserted(card.id)
            m[card.id] = card
            gone.removeAll { $0.id == card.id }
        }

        /// Deletes a stored object.
        mutating func delete(_ key: Int, _ tx: Transaction) throws {
            guard try tx.delete(Card.self, forPrimaryKey: key), let old = m.removeValue(forKey: key) else {
                throw CardWorkload.Mismatch("key \(key) was not stored")
            }
            journal.deleted(key)
            gone.append(old)
        }

        /// A `.modified` (or `.all`) write of `card`, stored or not.
        mutating func upsert(_ card: Card, all: Bool, _ tx: Transaction) throws {
            try tx.add(card, update: all ? .all : .modified)
            if let old = m[card.id] {
                journal.updated(card.id, fields: all ? Set(1..<fields.count) : differing(old, card))
            } else {
                journal.inserted(card.id)
                gone.removeAll { $0.id == card.id }
            }
            m[card.id] = card
        }

        /// Deletes a stored object and adds it again under the next new key.
        mutating func rekey(_ key: Int, _ tx: Transaction) throws {
            guard var card = m[key] else { return }
            try delete(key, tx)
            card.id = next
            next += 1
            try add(card, tx)
        }

        /// Makes one write of `kind`.
        mutating func apply(_ kind: Write, _ tx: Transaction, _ rng: inout SeededRandom) throws {
            switch kind {
            case .add:
                try add(CardWorkload.entry(next, &rng), tx)
                next += 1
            case .delete:
                if let key = someKey(&rng) { try delete(key, tx) }
            case .rekeyLowest:
                if let key = m.keys.min() { try rekey(key, tx) }
            case .rekeyRandom:
                if let key = someKey(&rng) { try rekey(key, tx) }
            case .modified, .all:
                guard let key = someKey(&rng), var card = m[key] else { return }
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: card.score = Int.random(in: 0..<50, using: &rng)
                case 1: card.group = Int.random(in: 0..<5, using: &rng)
                case 2: card.note = Bool.random(using: &rng) ? nil : "n\(Int.random(in: 0..<5, using: &rng))"
                case 3: card = CardWorkload.entry(key, &rng)
                default: break   // the same fields: a `.modified` write changes nothing
                }
                try upsert(card, all: kind == .all, tx)
            case .rename:
                guard let key = someKey(&rng), var card = m[key] else { return }
                card.name = CardWorkload.name(&rng)
                try upsert(card, all: false, tx)
            case .updateInPlace:
                guard let key = someKey(&rng), let old = m[key] else { return }
                let delta = Int.random(in: -5...5, using: &rng)
                let card = try tx.update(Card.self, forPrimaryKey: key) { $0.score = max(0, $0.score + delta) }
                journal.updated(key, fields: differing(old, card))
                m[key] = card
            case .readdSameKey:
                guard let key = someKey(&rng), let old = m[key] else { return }
                try delete(key, tx)
                try add(Bool.random(using: &rng) ? old : CardWorkload.entry(key, &rng), tx)
            case .restore:
                // An object deleted earlier (a recent one, often observed) added back under its
                // key: as it was but for one field (so that a sort by key keeps its place), or new.
                guard !gone.isEmpty else { return }
                var card = gone[max(0, gone.count - 1 - Int.random(in: 0..<4, using: &rng))]
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: card.score = Int.random(in: 0..<50, using: &rng)
                case 1: card.note = Bool.random(using: &rng) ? nil : "n\(Int.random(in: 0..<5, using: &rng))"
                case 2: card = CardWorkload.entry(card.id, &rng)
                default: break
                }
                if Bool.random(using: &rng) { try add(card, tx) } else { try upsert(card, all: Bool.random(using: &rng), tx) }
            case .upsertNew:
                try upsert(CardWorkload.entry(next, &rng), all: Bool.random(using: &rng), tx)
                next += 1
            case .deleteWhere:
                let limit = Int.random(in: 1...4, using: &rng)
                let deleted = try tx.delete(where: Card.self, "score < %@", limit)
                let matched = m.values.filter { $0.score < limit }.map(\.id)
                if deleted != matched.count { throw CardWorkload.Mismatch("\(deleted) deleted where \(matched.count) matched") }
                for key in matched {
                    journal.deleted(key)
                    gone.append(m.removeValue(forKey: key)!)
                }
            case .many:
                let n = Int.random(in: 8...30, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    for _ in 0..<n {
                        try add(CardWorkload.entry(next, &rng), tx)
                        next += 1
                    }
                case 1:
                    for _ in 0..<n { if let key = someKey(&rng) { try delete(key, tx) } }
                default:
                    for _ in 0..<n { if let key = m.keys.min() { try rekey(key, tx) } }
                }
            case .rollback, .empty:
                break
            }
        }
    }
}
