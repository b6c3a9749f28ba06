import Foundation
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import ObjectStore

/// One list whose query keeps changing (`observeChanges(on:)` over a sequence of `Results`),
/// as a search screen changes it: a search text typed, erased and cleared, filter chips
/// (groups) turned on and off, the sort switched (each field, either way, two keys, none), a
/// limit set and lifted, the same query sent again, results frozen at the newest version and
/// then live ones again; interleaved with random commits of every kind (those of
/// `ObjectObservationRandomizedTests`: re-keyings, which number the rows again now and then,
/// and deleted keys added back by a later commit included) and, on a file, compactions.
///
/// After every step, for the observer on the immediate scheduler: each change set turns the
/// list shown into the new list (`ShownChanges`: deletions, insertions, then modifications with
/// the new objects, so a kept object a commit changed must be a modification), each list
/// delivered is its query evaluated afresh on its snapshot, and the list shown is the current
/// query evaluated now and the same query answered in Swift from every stored object in slot
/// order (filtered, stably sorted, cut). An observer on a queue is checked event by event the
/// same way, and its list against the current query whenever the queue is drained; so is an
/// observer on a test scheduler whose deliveries are let run only now and then, so that
/// several queries and commits (an object deleted by one and added back by the next) fold into
/// one change set.
///
/// `REACTIVEMVVM_QUERIES_STEPS` sets the number of steps in all (default 1,200, split between
/// the backends, in rounds of 300 on a new store each); `REACTIVEMVVM_QUERIES_SEED` the seed of
/// the first round (a failure names the seed of its round).
@Suite(.resourceCheck) struct ObserveChangesRandomizedTests {
    static let environment = ProcessInfo.processInfo.environment
    static let steps = Int(environment["REACTIVEMVVM_QUERIES_STEPS"] ?? "") ?? 1_200
    static let firstSeed = UInt64(environment["REACTIVEMVVM_QUERIES_SEED"] ?? "") ?? 20_261_501
    static let roundLength = 300

    @Test(arguments: StoreBackend.allCases)
    func aListFollowsChangingQueriesAndCommits(_ backend: StoreBackend) throws {
        let total = max(1, Self.steps / StoreBackend.allCases.count)
        let start = Date()
        var tally = Tally()
        guard let done = try runSeededRounds(total: total, roundLength: Self.roundLength, firstSeed: Self.firstSeed,
                                              label: backend.testDescription, { seed, count in
            try Self.round(backend, seed: seed, steps: count, tally: &tally)
        }) else { return }
        if total >= 300 {
            #expect(Set(tally.steps.keys) == Set(Step.allCases), "only \(tally.steps.keys.map(\.rawValue).sorted()) were made")
            #expect(tally.writes == Set(ObjectObservationRandomizedTests.Write.allCases), "only \(tally.writes.map(\.rawValue).sorted()) were written")
            #expect(tally.renumbered > 0, "no commit numbered the rows again")
            #expect(tally.updates > 0)
        }
        if Self.steps > 10_000 {
            print("ObserveChangesRandomizedTests: \(done) steps \(backend.testDescription) (\(tally.steps[.commit] ?? 0) commits, "
                  + "\(done - (tally.steps[.commit] ?? 0)) query changes), \(tally.updates) updates, \(tally.renumbered) renumberings "
                  + "in \(Int(Date().timeIntervalSince(start))) s")
        }
    }

    /// What a run did, over its rounds.
    struct Tally {
        var steps: [Step: Int] = [:]
        var writes: Set<ObjectObservationRandomizedTests.Write> = []
        var updates = 0, renumbered = 0
    }

    /// What one step does.
    enum Step: String, CaseIterable {
        case commit, type, erase, clear, chips, sort, limit, again, freeze, unfreeze
        /// An object of the list deleted by one commit and added back under its key, one field
        /// changed, by the next (one change for a held observer: kept, and modified).
        case bounce
    }

    /// A search screen's query over the cards.
    struct Spec {
        var search = ""
        var groups: [Int]?
        var sort: [(key: String, ascending: Bool)] = []
        var limit: Int?

        /// The query as live results of `store`.
        func results(_ store: Store) -> Results<Card> {
            var results = store.objects(Card.self)
            if !search.isEmpty { results = results.filter("name CONTAINS[c] %@", search) }
            if let groups { results = results.filter("group IN %@", groups) }
            if !sort.isEmpty { results = results.sorted(by: sort.map { ObjectStore.SortDescriptor(keyPath: $0.key, ascending: $0.ascending) }) }
            if let limit { results = results.prefix(limit) }
            return results
        }

        /// The query answered in Swift from every stored card in slot order.
        func answer(_ stored: [Card]) -> [Card] {
            let text = search.lowercased()
            var cards = stored.filter { card in
                (text.isEmpty || card.name.lowercased().contains(text)) && (groups.map { $0.contains(card.group) } ?? true)
            }
            if !sort.isEmpty {
                let keys = sort
                cards = cards.enumerated().sorted { a, b in
                    for key in keys {
                        let c = Self.compare(a.element, b.element, key.key)
                        if c != 0 { return key.ascending ? c < 0 : c > 0 }
                    }
                    return a.offset < b.offset
                }.map(\.element)
            }
            if let limit, cards.count > limit { cards.removeSubrange(limit...) }
            return cards
        }

        /// The sort's order of two cards by one field (a missing note first).
        static func compare(_ a: Card, _ b: Card, _ key: String) -> Int {
            func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
            switch key {
            case "name": return order(a.name, b.name)
            case "group": return order(a.group, b.group)
            case "score": return order(a.score, b.score)
            case "id": return order(a.id, b.id)
            default:
                switch (a.note, b.note) {
                case (nil, nil): return 0
                case (nil, _): return -1
                case (_, nil): return 1
                case let (x?, y?): return order(x, y)
                }
            }
        }
    }

    /// A random sort: none, one field either way, or two.
    static func randomSort(_ rng: inout SeededRandom) -> [(key: String, ascending: Bool)] {
        let keys = ["name", "group", "score", "note", "id"]
        let count = [0, 1, 1, 1, 2][Int.random(in: 0..<5, using: &rng)]
        var picked: [(key: String, ascending: Bool)] = []
        for key in keys.shuffled(using: &rng).prefix(count) { picked.append((key, Bool.random(using: &rng))) }
        return picked
    }

    /// A store filled with random cards, then `steps` random steps; returns what went wrong (stopping at the first step that shows anything).
    static func round(_ backend: StoreBackend, seed: UInt64, steps: Int, tally: inout Tally) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let store = try backend.makeStore(objectTypes: [Card.self])
        var mirror: [Int: Card] = [:], next = 0, gone: [Card] = []
        try store.write { tx in
            for _ in 0..<Int.random(in: 30...120, using: &rng) {
                let card = CardWorkload.entry(next, &rng)
                try tx.add(card)
                mirror[next] = card
                next += 1
            }
        }
        var spec = Spec()
        /// The frozen results in the query stream now, and their answer when frozen.
        var frozen: (results: Results<Card>, answer: [Card])?
        let queries = BehaviorSubject(value: spec.results(store))
        let shown = ShownChanges<Card>("immediate", queryChanges: true)
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-changes-randomized")
        let queued = ShownChanges<Card>("queue", queryChanges: true)
        // Deliveries held until the test lets them run, so that several steps fold into one change.
        let held = TestScheduler(initialClock: 0)
        let folded = ShownChanges<Card>("held", queryChanges: true)
        let subscriptions = [
            queries.observeChanges(on: ImmediateScheduler.instance).subscribe(onNext: { shown.apply($0) }),
            queries.observeChanges(on: queue).subscribe(onNext: { queued.apply($0) }),
            queries.observeChanges(on: held).subscribe(onNext: { folded.apply($0) }),
        ]
        defer { for s in subscriptions { s.dispose() } }
        func drain() {
            let delivered = DispatchSemaphore(value: 0)
            _ = queue.schedule(()) { _ in
                delivered.signal()
                return Disposables.create()
            }
            delivered.wait()
        }

        var failures: [String] = []
        let letters = Array("antbecdoglA1N3")
        for index in 0..<steps {
            let step = pickStep(&rng, frozen: frozen != nil)
            tally.steps[step, default: 0] += 1
            let numbering = store.core.snapshot().tables["Card"]?.slotNumbering
            var send = true
            switch step {
            case .commit:
                let (write, _) = try ObjectObservationRandomizedTests.commit(store, &mirror, &next, &gone, watched: [], &rng)
                tally.writes.insert(write)
                send = false
                if backend == .file, Int.random(in: 0..<60, using: &rng) == 0 { try store.compact() }
            case .type: spec.search.append(letters.randomElement(using: &rng)!)
            case .erase: if !spec.search.isEmpty { spec.search.removeLast() }
            case .clear: spec.search = ""
            case .chips:
                spec.groups = Bool.random(using: &rng) ? nil : (0..<5).filter { _ in Bool.random(using: &rng) }
            case .sort: spec.sort = randomSort(&rng)
            case .limit: spec.limit = [nil, nil, 1, 5, 20].randomElement(using: &rng)!
            case .again: break
            case .bounce:
                send = false
                guard let card = shown.list.randomElement(using: &rng) else { break }
                try store.write { tx in _ = try tx.delete(Card.self, forPrimaryKey: card.id) }
                var back = card
                back.score = (card.score + 1 + Int.random(in: 0..<10, using: &rng)) % 50
                try store.write { tx in try tx.add(back) }
                mirror[card.id] = back
            case .freeze, .unfreeze: break
            }
            if store.core.snapshot().tables["Card"]?.slotNumbering != numbering { tally.renumbered += 1 }
            let stored = store.objects(Card.self).toArray()
            if step == .freeze {
                let results = spec.results(store).freeze()
                frozen = (results, spec.answer(stored))
            } else if step != .commit, step != .again, step != .bounce {
                frozen = nil
            }
            if send { queries.onNext(frozen?.results ?? spec.results(store)) }
            let at = "step \(index + 1) (\(step.rawValue); search '\(spec.search)', groups \(spec.groups.map { "\($0)" } ?? "any"), "
                + "sort \(spec.sort.map { "\($0.key)\($0.ascending ? "" : " down")" }), limit \(spec.limit.map { "\($0)" } ?? "none")\(frozen == nil ? "" : ", frozen"))"
            let expected = frozen?.answer ?? spec.answer(stored)
            let current = (frozen?.results ?? spec.results(store)).toArray()
            if shown.list != current { failures.append("\(at): the list shown (\(shown.list.count)) is not the query evaluated now (\(current.count))") }
            if current != expected { failures.append("\(at): the query evaluated now (\(current.map(\.id).prefix(10))) is not its answer in Swift (\(expected.map(\.id).prefix(10)))") }
            if index % 25 == 24 {
                drain()
                if queued.list != current { failures.append("\(at): the queue's list is not the query evaluated now") }
            }
            if Int.random(in: 0..<5, using: &rng) == 0 {
                held.start()
                if folded.list != current { failures.append("\(at): the held list is not the query evaluated now") }
            }
            failures += shown.failures + queued.failures + folded.failures
            if !failures.isEmpty { return failures }
        }
        drain()
        held.start()
        tally.updates += shown.updates + queued.updates + folded.updates
        return shown.failures + queued.failures + folded.failures
    }

    /// A step: a commit about half the time, otherwise a change of the query (unfreezing only
    /// when frozen).
    static func pickStep(_ rng: inout SeededRandom, frozen: Bool) -> Step {
        let weighted: [(Step, Int)] = [
            (.commit, 45), (.bounce, 4), (.type, 14), (.erase, 7), (.clear, 3), (.chips, 8), (.sort, 8), (.limit, 6), (.again, 3),
            (.freeze, frozen ? 0 : 3), (.unfreeze, frozen ? 30 : 0),
        ]
        var r = Int.random(in: 0..<weighted.reduce(0) { $0 + $1.1 }, using: &rng)
        for (step, weight) in weighted {
            if r < weight { return step }
            r -= weight
        }
        return .commit
    }
}
