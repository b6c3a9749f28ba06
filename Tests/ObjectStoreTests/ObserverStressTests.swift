import Foundation
import Locking
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// Two writers making random commits of every kind (`CardWorkload`) at once, observers of every
/// kind of query on the immediate scheduler (delivered on whichever writer drains) and on a
/// queue, observers started and stopped all along, and readers of frozen snapshots (run under
/// the thread sanitizer by CI). Every change set must turn the list shown into the list
/// delivered, every list delivered must be its query evaluated afresh on its snapshot, every
/// frozen read must be one snapshot, and at the end every observer must show the results.
///
/// `REACTIVEMVVM_OBSERVER_STRESS_COMMITS` sets the commits of each writer (default 150).
@Suite(.resourceCheck) struct ObserverStressTests {
    static let commitsPerWriter = Int(ProcessInfo.processInfo.environment["REACTIVEMVVM_OBSERVER_STRESS_COMMITS"] ?? "") ?? 150

    @Test(arguments: StoreBackend.allCases)
    func writersObserversAndFrozenReaders(_ backend: StoreBackend) throws {
        let seed: UInt64 = backend == .memory ? 31 : 32
        var rng = SeededRandom(seed: seed)
        let store = try backend.makeStore(objectTypes: [Card.self])
        let workload = CardWorkload()
        try workload.fill(store, count: 80, &rng)
        let queries = CardWorkload.queries(store)
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "observer-stress")
        var observed: [(results: Results<Card>, shown: ShownChanges<Card>, subscription: Disposable)] = []
        for (label, results) in queries {
            for (name, scheduler) in [("immediate", ImmediateScheduler.instance), ("queue", queue)] as [(String, ImmediateSchedulerType)] {
                let shown = ShownChanges<Card>("\(label) (\(name))")
                observed.append((results, shown, results.observe(on: scheduler).subscribe(onNext: { shown.apply($0) })))
            }
        }
        let failures = Locked<[String]>([])
        let writersLeft = Locked(2)
        var threads: [@Sendable () -> Void] = []
        for writer in 0..<2 {
            threads.append {
                var rng = SeededRandom(seed: seed &* 100 &+ UInt64(writer))
                for _ in 0..<Self.commitsPerWriter {
                    do {
                        try workload.commit(store, &rng)
                        if backend == .file, Int.random(in: 0..<150, using: &rng) == 0 { try store.compact() }
                    } catch {
                        failures.withLock { $0.append("writer \(writer): \(error)") }
                        break
                    }
                }
                writersLeft.withLock { $0 -= 1 }
            }
        }
        for reader in 0..<2 {
            threads.append {
                var rng = SeededRandom(seed: seed &* 100 &+ 10 &+ UInt64(reader))
                var rounds = 0
                while writersLeft.withLock({ $0 }) > 0 || rounds < 20 {
                    rounds += 1
                    let problems = Self.readFrozen(queries[Int.random(in: 0..<queries.count, using: &rng)].results, store)
                    if !problems.isEmpty { failures.withLock { $0 += problems.map { "reader \(reader): \($0)" } } }
                    // Reads between the commits, not a flat-out loop that starves the writers of
                    // the machine's cores.
                    usleep(UInt32.random(in: 0..<5_000, using: &rng))
                }
            }
        }
        // Observers started and stopped while the writers run.
        threads.append {
            var rng = SeededRandom(seed: seed &* 100 &+ 20)
            while writersLeft.withLock({ $0 }) > 0 {
                let (label, results) = queries[Int.random(in: 0..<queries.count, using: &rng)]
                let shown = ShownChanges<Card>("\(label) (started midway)")
                let subscription = results.observe(on: ImmediateScheduler.instance).subscribe(onNext: { shown.apply($0) })
                usleep(UInt32.random(in: 0..<3_000, using: &rng))
                subscription.dispose()
                let problems = shown.failures
                if !problems.isEmpty { failures.withLock { $0 += problems } }
            }
        }
        let finished = DispatchGroup()
        for body in threads {
            finished.enter()
            Thread {
                body()
                finished.leave()
            }.start()
        }
        finished.wait()
        // Everything the queue was sent has been delivered once this runs there.
        let delivered = DispatchSemaphore(value: 0)
        _ = queue.schedule(()) { _ in
            delivered.signal()
            return Disposables.create()
        }
        delivered.wait()
        var all = failures.withLock { $0 }
        for o in observed {
            all += o.shown.failures
            if o.shown.list != o.results.toArray() { all.append("\(o.shown.label): the last list delivered is not the results") }
            o.subscription.dispose()
        }
        let stored = store.objects(Card.self).toArray()
        if Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) != workload.objects || stored.count != workload.objects.count {
            all.append("the store does not hold what was written")
        }
        #expect(all.isEmpty, "seed \(seed) (\(backend.testDescription)): \(all.prefix(8).joined(separator: "; "))")
        #expect(store._checkInvariants())
        #expect(workload.kinds.values.reduce(0, +) == 2 * Self.commitsPerWriter)
    }

    /// What is wrong with reads of `results` frozen at the current version: two reads must
    /// agree, the objects must be the query evaluated afresh on that snapshot, and a key
    /// looked up in the frozen snapshot must give the object listed.
    static func readFrozen(_ results: Results<Card>, _ store: Store) -> [String] {
        let frozen = results.freeze()
        guard let snapshot = frozen.pinned else { return ["freeze() did not pin the results"] }
        let first = frozen.toArray()
        var problems: [String] = []
        if frozen.count != first.count { problems.append("count \(frozen.count) of \(first.count) objects read") }
        let fresh = Results<Card>(core: frozen.core, schema: frozen.schema, pipeline: frozen.pipeline, pinned: snapshot).toArray()
        if fresh != first { problems.append("frozen \(frozen.queryDescription) is not its query evaluated again") }
        if frozen.toArray() != first { problems.append("two reads of frozen \(frozen.queryDescription) differ") }
        if let card = first.randomElement(),
           let row = snapshot.table(frozen.schema)?.row(forKey: .int(Int64(card.id))),
           row[frozen.schema.fieldIndex["name"]!] != .string(card.name) {
            problems.append("object \(card.id) by key is not the object listed")
        }
        return problems
    }
}
