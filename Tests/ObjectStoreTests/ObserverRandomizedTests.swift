import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// Observers of every kind of query, on the immediate scheduler and on a queue, through random
/// sequences of every kind of write (`CardWorkload`). After every commit each change set must
/// turn the list shown into the new list, every list delivered must be the query evaluated
/// afresh on its snapshot, and the immediate observers' lists, the objects observed one by one
/// and the store's contents must be what the commit left.
///
/// `REACTIVEMVVM_OBSERVER_COMMITS` sets the number of commits in all (default 1,500, split
/// between the backends, in rounds of 500 on a new store each); `REACTIVEMVVM_OBSERVER_SEED`
/// the seed of the first round (a failure names the seed of its round: run that round alone
/// with it and `REACTIVEMVVM_OBSERVER_COMMITS=500`, or 1,000 for both backends).
@Suite(.resourceCheck) struct ObserverRandomizedTests {
    static let environment = ProcessInfo.processInfo.environment
    static let commits = Int(environment["REACTIVEMVVM_OBSERVER_COMMITS"] ?? "") ?? 1_500
    static let firstSeed = UInt64(environment["REACTIVEMVVM_OBSERVER_SEED"] ?? "") ?? 20_261_201
    static let roundLength = 500

    @Test(arguments: StoreBackend.allCases)
    func observersFollowRandomCommits(_ backend: StoreBackend) throws {
        let total = max(1, Self.commits / StoreBackend.allCases.count)
        let start = Date()
        // Every kind of write must be made, over the whole run: a round of 500 random commits
        // makes a rare kind (a `deleteWhere`) now and then not at all.
        var written = Set<CardWorkload.Kind>()
        guard let done = try runSeededRounds(total: total, roundLength: Self.roundLength, firstSeed: Self.firstSeed,
                                              label: backend.testDescription, { seed, count in
            try Self.round(backend, seed: seed, commits: count, written: &written)
        }) else { return }
        if total >= 250 {
            #expect(written == Set(CardWorkload.Kind.allCases), "only \(written.map(\.rawValue).sorted()) were written")
        }
        if Self.commits > 10_000 {
            print("ObserverRandomizedTests: \(done) commits \(backend.testDescription) in \(Int(Date().timeIntervalSince(start))) s")
        }
    }

    /// One observed subscription and what it was sent.
    struct Observed {
        let label: String
        let query: Results<Card>
        let immediate: Bool
        let shown: ShownChanges<Card>
        let subscription: Disposable

        init(_ label: String, _ query: Results<Card>, on scheduler: ImmediateSchedulerType?) {
            self.label = label
            self.query = query
            immediate = scheduler == nil
            shown = ShownChanges<Card>("\(label) (\(scheduler == nil ? "immediate" : "queue"))")
            subscription = query.observe(on: scheduler ?? ImmediateScheduler.instance).subscribe(onNext: { [shown] in shown.apply($0) })
        }
    }

    /// A store filled with random objects, then `commits` random commits observed; returns what
    /// went wrong (stopping at the first commit that shows anything).
    static func round(_ backend: StoreBackend, seed: UInt64, commits: Int) throws -> [String] {
        try round(backend, seed: seed, commits: commits, written: nil)
    }

    /// One round; the kinds of write it made are added to `written` when given, and otherwise
    /// checked: a round as long as the default one must have made every kind.
    static func round(_ backend: StoreBackend, seed: UInt64, commits: Int, written: UnsafeMutablePointer<Set<CardWorkload.Kind>>?) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let store = try backend.makeStore(objectTypes: [Card.self])
        let workload = CardWorkload()
        try workload.fill(store, count: Int.random(in: 30...120, using: &rng), &rng)
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "observer-randomized")
        let queries = CardWorkload.queries(store)
        var observed = queries.flatMap { q in [Observed(q.label, q.results, on: nil), Observed(q.label, q.results, on: queue)] }
        // One list whose query changes now and then (`observeChanges`).
        let switched = BehaviorSubject(value: queries[0].results)
        let switching = ShownChanges<Card>("observeChanges", queryChanges: true)
        let switchingSubscription = switched.observeChanges(on: ImmediateScheduler.instance).subscribe(onNext: { switching.apply($0) })
        var current = 0
        var trails = workload.objects.keys.sorted().prefix(4).map { ObjectTrail(store, key: $0) }
        defer {
            for o in observed { o.subscription.dispose() }
            switchingSubscription.dispose()
            for t in trails { t.dispose() }
        }

        var failures: [String] = []
        var renumbered = 0
        for step in 0..<commits {
            let before = workload.objects
            let numbering = store.core.snapshot().tables["Card"]?.slotNumbering
            let kind = try workload.commit(store, &rng)
            let after = workload.objects
            let at = "commit \(step + 1) (\(kind.rawValue))"
            if backend == .file, Int.random(in: 0..<200, using: &rng) == 0 { try store.compact() }
            // The commit, or a compaction of the file (whose table then has a base, which keeps
            // its slots), numbered the rows again.
            if store.core.snapshot().tables["Card"]?.slotNumbering != numbering { renumbered += 1 }
            // An observer sent this commit's list had it checked; any other must still show the results.
            for o in observed where o.immediate && o.shown.version != store.version {
                if o.shown.list != o.query.toArray() { failures.append("\(o.shown.label): \(at): the list shown is not the results") }
            }
            let all = observed[0].shown.list
            if all.count != after.count || Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) != after {
                failures.append("\(at): the store does not hold what was written")
            }
            if switching.list != queries[current].results.toArray() { failures.append("observeChanges: \(at): the list shown is not the results") }
            for (i, trail) in trails.enumerated() {
                failures += trail.check(before: before[trail.key], after: after[trail.key]).map { "\(at): \($0)" }
                if trail.ended, let key = after.keys.randomElement(using: &rng) {
                    trail.dispose()
                    trails[i] = ObjectTrail(store, key: key)
                }
            }
            if step % 61 == 60 {
                current = Int.random(in: 0..<queries.count, using: &rng)
                switched.onNext(queries[current].results)
            }
            if step % 97 == 96 {
                // An observer replaced by a new one of the same query, midway.
                let i = Int.random(in: 0..<observed.count, using: &rng)
                let old = observed[i]
                failures += old.shown.failures
                old.subscription.dispose()
                observed[i] = Observed(old.label, old.query, on: old.immediate ? nil : queue)
            }
            failures += observed.flatMap(\.shown.failures) + switching.failures
            if !failures.isEmpty { return ["\(at): "] + failures }
        }
        // Everything the queue was sent has been delivered once this runs there.
        let delivered = DispatchSemaphore(value: 0)
        _ = queue.schedule(()) { _ in
            delivered.signal()
            return Disposables.create()
        }
        delivered.wait()
        for o in observed where !o.immediate {
            if o.shown.list != o.query.toArray() { failures.append("\(o.shown.label): the last list delivered is not the results") }
        }
        failures += observed.flatMap(\.shown.failures)
        // Rows numbered again (a round as long as the default one has several).
        if commits >= 250, renumbered == 0 { failures.append("neither a commit nor a compaction numbered the rows again") }
        if let written {
            written.pointee.formUnion(workload.kinds.keys)
        } else if commits >= 250, Set(workload.kinds.keys) != Set(CardWorkload.Kind.allCases) {
            failures.append("only \(workload.kinds.keys.map(\.rawValue).sorted()) were written")
        }
        if !store._checkInvariants() { failures.append("the store's indexes do not agree with its rows") }
        return failures
    }
}
