import Foundation
import Locking
import ObjectStore
import Repository
import Streams
import StreamsBlocking
import StreamsTesting
import Testing
import TestSupport

/// One list of view models following the latest of a sequence of `ViewModelQuery`s
/// (`observeChanges(on:)`), as a screen changes it: a search text typed, erased and cleared,
/// rank chips, the sort switched, the same query sent again; interleaved with random commits:
/// adds, deletes, re-keyings (the lowest key, many at once), renames, `.all` upserts, an
/// object deleted and added back under its own key in one commit or by a later one,
/// rollbacks, empty commits.
///
/// After every step each change set must turn the list shown into the new one (deletions, then
/// insertions and modifications taken from the new list: a kept row whose view model changed
/// must be a modification), and the list must be the current query read afresh (`all()`) and
/// the same query answered in Swift from every stored object in slot order. An observer on a
/// queue is checked change by change the same way, and against the query when drained; so is
/// one on a test scheduler let run only now and then, whose changes fold several steps.
///
/// `REACTIVEMVVM_VMQUERY_STEPS` sets the number of steps in all (default 1,200, split between
/// an in-memory store and a file, in rounds of 300 on a new store each);
/// `REACTIVEMVVM_VMQUERY_SEED` the seed of the first round (a failure names it).
@Suite(.resourceCheck) struct ViewModelQueryChangesRandomizedTests {
    static let environment = ProcessInfo.processInfo.environment
    static let steps = Int(environment["REACTIVEMVVM_VMQUERY_STEPS"] ?? "") ?? 1_200
    static let firstSeed = UInt64(environment["REACTIVEMVVM_VMQUERY_SEED"] ?? "") ?? 20_261_601
    static let roundLength = 300

    struct Ticket: StoreObject, Equatable {
        static var primaryKey: KeyPath<Ticket, Int> { \.id }
        static var indexedProperties: [String] { ["title", "rank"] }
        var id: Int
        var title: String
        var rank: Int
        var note: String?

        /// A ticket with random fields (few titles and ranks, so that sorts have ties).
        static func make(_ id: Int, _ rng: inout SeededRandom) -> Ticket {
            Ticket(id: id, title: ["pay", "fix", "call", "ship", "plan"].randomElement(using: &rng)! + "\(Int.random(in: 0..<4, using: &rng))",
                   rank: Int.random(in: 0..<6, using: &rng), note: Bool.random(using: &rng) ? nil : "n\(Int.random(in: 0..<3, using: &rng))")
        }
    }

    /// What a row shows.
    struct TicketRow: Equatable {
        let id: Int
        let line: String

        init(_ ticket: Ticket) {
            id = ticket.id
            line = "\(ticket.title) #\(ticket.rank) \(ticket.note ?? "-")"
        }
    }

    /// The list a `ListChange` observer builds, checked at each change.
    final class Shown: @unchecked Sendable {
        private let lock = Lock()
        private var _items: [TicketRow]?
        private var _failures: [String] = []
        private var _changes = 0
        let label: String

        init(_ label: String) { self.label = label }

        var items: [TicketRow] { lock.withLock { _items ?? [] } }
        var failures: [String] { lock.withLock { _failures } }
        var changes: Int { lock.withLock { _changes } }

        /// Applies a change to the rows shown, checking it.
        func apply(_ change: ListChange<TicketRow>) {
            lock.withLock {
                defer { _items = change.items }
                guard let old = _items else {
                    if !change.isInitial { _failures.append("\(label): a change before the initial list") }
                    return
                }
                _changes += 1
                if change.isInitial { return _failures.append("\(label): a second initial list") }
                func ascending(_ xs: [Int]) -> Bool { zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 } }
                var rows = old
                var valid = ascending(change.deletions) && ascending(change.insertions) && ascending(change.modifications)
                for i in change.deletions.reversed() where valid {
                    if rows.indices.contains(i) { rows.remove(at: i) } else { valid = false }
                }
                for i in change.insertions where valid {
                    if i <= rows.count, change.items.indices.contains(i) { rows.insert(change.items[i], at: i) } else { valid = false }
                }
                for i in change.modifications where valid {
                    if rows.indices.contains(i), change.items.indices.contains(i) { rows[i] = change.items[i] } else { valid = false }
                }
                if !valid || rows != change.items {
                    _failures.append("\(label): deletions \(change.deletions) insertions \(change.insertions) modifications "
                                     + "\(change.modifications) do not turn \(old.count) rows into the \(change.items.count) sent")
                }
            }
        }
    }

    /// A screen's query: a search, rank chips, a sort.
    struct Spec {
        var search = ""
        var ranks: [Int]?
        var sort: [(key: String, ascending: Bool)] = []

        /// The query over `store`.
        func query(_ store: Store) throws -> ViewModelQuery<Ticket, TicketRow> {
            var query = ViewModelQuery<Ticket, TicketRow>(store: store, viewModel: TicketRow.init)
            if !search.isEmpty { query = try query.filtered("title CONTAINS[c] %@", search) }
            if let ranks { query = try query.filtered("rank IN %@", ranks) }
            return query.sorted(by: sort.map { ObjectStore.SortDescriptor(keyPath: $0.key, ascending: $0.ascending) })
        }

        /// The query answered in Swift from the stored tickets in slot order.
        func answer(_ stored: [Ticket]) -> [TicketRow] {
            let text = search.lowercased()
            let kept = stored.filter { t in (text.isEmpty || t.title.lowercased().contains(text)) && (ranks.map { $0.contains(t.rank) } ?? true) }
            func compare(_ a: Ticket, _ b: Ticket, _ key: String) -> Int {
                func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
                switch key {
                case "title": return order(a.title, b.title)
                case "rank": return order(a.rank, b.rank)
                case "id": return order(a.id, b.id)
                default: return a.note == b.note ? 0 : (a.note == nil ? -1 : (b.note == nil ? 1 : order(a.note!, b.note!)))
                }
            }
            let keys = sort
            return kept.enumerated().sorted { a, b in
                for key in keys {
                    let c = compare(a.element, b.element, key.key)
                    if c != 0 { return key.ascending ? c < 0 : c > 0 }
                }
                return a.offset < b.offset
            }.map { TicketRow($0.element) }
        }
    }

    /// What one step does.
    enum Step: String, CaseIterable {
        case commit, type, erase, clear, chips, sort, again
        /// A row's object deleted by one commit and added back under its key, one field
        /// changed, by the next (one change for a held observer: kept, and modified).
        case bounce
    }

    /// The kinds of commit.
    enum Write: String, CaseIterable {
        case add, delete, rekeyLowest, rekeyMany, rename, all, readdSameKey, restore, rollback, empty
    }

    /// Thrown inside a transaction to roll it back.
    struct Rollback: Error {}

    @Test(arguments: [false, true])
    func aListOfViewModelsFollowsChangingQueriesAndCommits(inFile: Bool) throws {
        let total = max(1, Self.steps / 2)
        let start = Date()
        var counts: [String: Int] = [:]
        guard let done = try runSeededRounds(total: total, roundLength: Self.roundLength, firstSeed: Self.firstSeed,
                                              label: inFile ? "in a file" : "in memory", { seed, count in
            try Self.round(inFile: inFile, seed: seed, steps: count, counts: &counts)
        }) else { return }
        if total >= 300 {
            let made = Set(counts.keys).subtracting(["changes"])
            #expect(made == Set(Step.allCases.map(\.rawValue) + Write.allCases.map(\.rawValue)), "only \(made.sorted()) were made")
        }
        if Self.steps > 10_000 {
            print("ViewModelQueryChangesRandomizedTests: \(done) steps \(inFile ? "in a file" : "in memory") "
                  + "(\(counts["commit"] ?? 0) commits), \(counts["changes", default: 0]) changes in \(Int(Date().timeIntervalSince(start))) s")
        }
    }

    /// A store filled with random tickets, then `steps` random steps; returns what went wrong (stopping at the first step that shows anything).
    static func round(inFile: Bool, seed: UInt64, steps: Int, counts: inout [String: Int]) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vmquery-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = inFile
            ? try Store(configuration: .file(url: directory.appendingPathComponent("t.store"), objectTypes: [Ticket.self], durability: .relaxed))
            : try Store(configuration: .inMemory(identifier: "vmquery-\(UUID().uuidString)", objectTypes: [Ticket.self]))
        var mirror: [Int: Ticket] = [:]
        var next = 0
        var gone: [Ticket] = []
        try store.write { tx in
            for _ in 0..<Int.random(in: 30...110, using: &rng) {
                let t = Ticket.make(next, &rng)
                try tx.add(t)
                mirror[next] = t
                next += 1
            }
        }
        var spec = Spec()
        let queries = BehaviorSubject(value: try spec.query(store))
        let shown = Shown("immediate"), queued = Shown("queue")
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "vmquery-randomized")
        // Deliveries held until the test lets them run, so that several steps fold into one change.
        let held = TestScheduler(initialClock: 0)
        let folded = Shown("held")
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
        let letters = Array("payfixcshlnP1A2")
        var failures: [String] = []
        for index in 0..<steps {
            let step = pickStep(&rng)
            counts[step.rawValue, default: 0] += 1
            var label = step.rawValue
            switch step {
            case .commit:
                let write = try commit(store, &mirror, &next, &gone, &rng)
                counts[write.rawValue, default: 0] += 1
                label += " \(write.rawValue)"
            case .type: spec.search.append(letters.randomElement(using: &rng)!)
            case .erase: if !spec.search.isEmpty { spec.search.removeLast() }
            case .clear: spec.search = ""
            case .chips: spec.ranks = Bool.random(using: &rng) ? nil : (0..<6).filter { _ in Bool.random(using: &rng) }
            case .sort:
                let keys = ["title", "rank", "note", "id"].shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng))
                spec.sort = keys.map { ($0, Bool.random(using: &rng)) }
            case .again: break
            case .bounce:
                guard let row = shown.items.randomElement(using: &rng), var ticket = mirror[row.id] else { break }
                try store.write { tx in _ = try tx.delete(Ticket.self, forPrimaryKey: ticket.id) }
                ticket.note = ticket.note == nil ? "n\(Int.random(in: 0..<3, using: &rng))" : nil
                try store.write { [ticket] tx in try tx.add(ticket) }
                mirror[ticket.id] = ticket
            }
            if step != .commit, step != .bounce { queries.onNext(try spec.query(store)) }
            let at = "step \(index + 1) (\(label); search '\(spec.search)', ranks \(spec.ranks.map { "\($0)" } ?? "any"), "
                + "sort \(spec.sort.map { "\($0.key)\($0.ascending ? "" : " down")" }))"
            let fresh = try spec.query(store).all().toBlocking().single()
            let answer = spec.answer(store.objects(Ticket.self).toArray())
            if shown.items != fresh { failures.append("\(at): the list shown (\(shown.items.count) rows) is not the query read afresh (\(fresh.count))") }
            if fresh != answer { failures.append("\(at): the query read afresh is not its answer in Swift") }
            if index % 25 == 24 {
                drain()
                if queued.items != fresh { failures.append("\(at): the queue's list is not the query read afresh") }
            }
            if Int.random(in: 0..<5, using: &rng) == 0 {
                held.start()
                if folded.items != fresh { failures.append("\(at): the held list is not the query read afresh") }
            }
            failures += shown.failures + queued.failures + folded.failures
            if !failures.isEmpty { return failures }
        }
        drain()
        held.start()
        counts["changes", default: 0] += shown.changes + queued.changes + folded.changes
        return shown.failures + queued.failures + folded.failures
    }

    /// A step: a commit half the time, otherwise a change of the query.
    static func pickStep(_ rng: inout SeededRandom) -> Step {
        let weighted: [(Step, Int)] = [(.commit, 50), (.bounce, 4), (.type, 16), (.erase, 8), (.clear, 3), (.chips, 9), (.sort, 10), (.again, 4)]
        var r = Int.random(in: 0..<weighted.reduce(0) { $0 + $1.1 }, using: &rng)
        for (step, weight) in weighted {
            if r < weight { return step }
            r -= weight
        }
        return .commit
    }

    /// One transaction of a random kind, mirrored in `mirror`.
    static func commit(_ store: Store, _ mirror: inout [Int: Ticket], _ next: inout Int, _ gone: inout [Ticket], _ rng: inout SeededRandom) throws -> Write {
        let weighted: [(Write, Int)] = [(.add, 10), (.delete, 9), (.rekeyLowest, 14), (.rekeyMany, 2), (.rename, 10), (.all, 6),
                                        (.readdSameKey, 4), (.restore, 6), (.rollback, 5), (.empty, 3)]
        var r = Int.random(in: 0..<weighted.reduce(0) { $0 + $1.1 }, using: &rng)
        var write = Write.add
        for (kind, weight) in weighted {
            if r < weight { write = kind; break }
            r -= weight
        }
        if mirror.count < 20 { write = .add }
        var m = mirror, n = next, g = gone
        var local = SeededRandom(seed: rng.next())
        func randomKey() -> Int? { m.isEmpty ? nil : m.keys.sorted()[Int.random(in: 0..<m.count, using: &local)] }
        func rekey(_ tx: Transaction) throws {
            guard let key = m.keys.min(), var t = m.removeValue(forKey: key) else { return }
            try tx.delete(t)
            g.append(t)
            t.id = n
            n += 1
            try tx.add(t)
            m[t.id] = t
        }
        do {
            try store.write { tx in
                switch write {
                case .add:
                    let t = Ticket.make(n, &local)
                    n += 1
                    try tx.add(t)
                    m[t.id] = t
                case .delete:
                    guard let key = randomKey() else { return }
                    _ = try tx.delete(Ticket.self, forPrimaryKey: key)
                    g.append(m.removeValue(forKey: key)!)
                case .rekeyLowest: try rekey(tx)
                case .rekeyMany: for _ in 0..<Int.random(in: 5...20, using: &local) { try rekey(tx) }
                case .rename:
                    guard let key = randomKey() else { return }
                    m[key]!.title = Ticket.make(key, &local).title
                    try tx.add(m[key]!, update: .modified)
                case .all:
                    guard let key = randomKey() else { return }
                    var t = Ticket.make(key, &local)
                    if Bool.random(using: &local) { t = m[key]! }
                    try tx.add(t, update: .all)
                    m[key] = t
                case .readdSameKey:
                    guard let key = randomKey(), let old = m[key] else { return }
                    try tx.delete(old)
                    let t = Bool.random(using: &local) ? old : Ticket.make(key, &local)
                    try tx.add(t)
                    m[key] = t
                case .restore:
                    // An object deleted by an earlier commit (a recent one) added back under its key:
                    // as it was but for one field (so that a sort by key keeps its place), or new.
                    guard !g.isEmpty else { return }
                    var t = g.remove(at: max(0, g.count - 1 - Int.random(in: 0..<3, using: &local)))
                    switch Int.random(in: 0..<3, using: &local) {
                    case 0: t.rank = Int.random(in: 0..<6, using: &local)
                    case 1: t.note = t.note == nil ? "n9" : nil
                    default: t = Ticket.make(t.id, &local)
                    }
                    try tx.add(t)
                    m[t.id] = t
                case .rollback:
                    let t = Ticket.make(n, &local)
                    try tx.add(t)
                    if let key = m.keys.min() { _ = try tx.delete(Ticket.self, forPrimaryKey: key) }
                    throw Rollback()
                case .empty:
                    return
                }
            }
            mirror = m
            next = n
            gone = g
        } catch is Rollback {}
        return write
    }
}
