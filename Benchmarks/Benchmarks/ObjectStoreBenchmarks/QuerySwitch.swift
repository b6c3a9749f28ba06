import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import ObjectStore
import Streams

// A list whose query changes (a search field): from typing one more letter (or deleting it) to
// the change set a table animates, on 10,000 pizzas sorted by name. Each switch builds a new
// query, as a keystroke does (so no side reuses an evaluation cached for the old one).

/// Objects in the query-switch scenario (the issue's 10,000, in smoke runs too).
let switchCount = 10_000

func registerQuerySwitchBenchmarks() {
    let pizzas = makePizzas(switchCount)
    let texts = ["ma", "mar"]
    let switches = isSmoke ? 2 : 10
    let name = "Query switch to a change set over \(switchCount) sorted by name (search 'ma' to 'mar' and back)"
    // Rows that leave (or come back) on each switch, the same on every side.
    let matches = { (text: String) in Set(pizzas.filter { $0.name.lowercased().contains(text) }.map(\.id)) }
    let moved = matches(texts[0]).subtracting(matches(texts[1])).count

    // Ours: one observation that follows the latest query and emits change sets.
    scenario(name, .ours, operations: switches) { benchmark in
        let store = try prepared(benchmark) { try ourStore(pizzas) }
        let all = store.objects(Pizza.self).sorted(by: [ObjectStore.SortDescriptor(keyPath: "name"), ObjectStore.SortDescriptor(keyPath: "id")])
        let queries = PublishSubject<Results<Pizza>>()
        let counter = Counter()
        let subscription = queries.observeChanges(on: ImmediateScheduler.instance).subscribe(onNext: { change in
            if case .update(_, let deletions, let insertions, _) = change, deletions.count + insertions.count == moved { counter.increment() }
        })
        queries.onNext(all.filter("name CONTAINS[c] %@", texts[0]))
        benchmark.startMeasurement()
        for i in 1...switches { queries.onNext(all.filter("name CONTAINS[c] %@", texts[i % 2])) }
        benchmark.stopMeasurement()
        subscription.dispose()
        precondition(counter.value == switches, "\(counter.value) change sets")
    }

    // GRDB: what a new ValueObservation fetches when it starts (the ids, in order; the
    // observation's own set-up is left out), then the simplest diff, Swift's.
    scenario(name, .grdb, operations: switches) { benchmark in
        let queue = try prepared(benchmark) { try grdbQueue(pizzas) }
        let fetch = { (text: String) in
            try queue.read { db in
                try Int.fetchAll(db, sql: "SELECT id FROM pizza WHERE name LIKE ? ORDER BY name, id", arguments: ["%\(text)%"])
            }
        }
        var shown = try fetch(texts[0])
        var changed = 0
        benchmark.startMeasurement()
        for i in 1...switches {
            let ids = try fetch(texts[i % 2])
            let difference = ids.difference(from: shown).inferringMoves()
            if difference.insertions.count + difference.removals.count == moved { changed += 1 }
            shown = ids
        }
        benchmark.stopMeasurement()
        precondition(changed == switches, "\(changed) change sets")
    }

    // Baseline: the array filtered and sorted again, and the same diff.
    scenario(name, .baseline, operations: switches) { benchmark in
        let evaluate = { (text: String) in
            pizzas.filter { $0.name.range(of: text, options: .caseInsensitive) != nil }
                .sorted { ($0.name, $0.id) < ($1.name, $1.id) }
                .map(\.id)
        }
        var shown = evaluate(texts[0])
        var changed = 0
        benchmark.startMeasurement()
        for i in 1...switches {
            let ids = evaluate(texts[i % 2])
            let difference = ids.difference(from: shown).inferringMoves()
            if difference.insertions.count + difference.removals.count == moved { changed += 1 }
            shown = ids
        }
        benchmark.stopMeasurement()
        precondition(changed == switches, "\(changed) change sets")
    }
}
