import Benchmark
import BenchmarkSupport
import Foundation
import ObjectStore
import Observation
import Repository
import Streams
import StreamsObservation

// The StreamsObservation suite: a view model's output on its way to a SwiftUI body, and a live
// query on its way to a list. A reader stands for the body: it reads the state inside
// `withObservationTracking`, counts the invalidation that follows a change and reads again,
// as SwiftUI does before the next frame. The baselines are what an app would write without the
// module: an `@Observable` property set by hand, and the same query's changes delivered to a
// Driver.

let benchmarks: @Sendable () -> Void = {
    registerOutputBenchmarks()
    registerListBenchmarks()
}

/// The suite's configuration; `seconds` per flavour.
func configuration(seconds: Int = 3) -> Benchmark.Configuration {
    suiteConfiguration(warmupIterations: 1, maxDuration: .seconds(seconds), maxIterations: 100)
}

/// Registers a scenario whose body runs on the main actor, where observable state lives: on the
/// main thread at once when the runner is there, otherwise on the main queue.
func scenario(_ name: String, _ flavour: String, operations: Int, seconds: Int = 3, _ body: @escaping @MainActor (Benchmark) throws -> Void) {
    registerScenario(name, flavour: flavour, operations: operations, configuration: configuration(seconds: seconds)) { benchmark in
        // The runner waits for the body, so the benchmark is used by one thread at a time.
        nonisolated(unsafe) let benchmark = benchmark
        try onMainActor { try body(benchmark) }
    }
}

func onMainActor(_ work: @MainActor () throws -> Void) throws {
    if Thread.isMainThread { return try MainActor.assumeIsolated { try work() } }
    try DispatchQueue.main.sync { try MainActor.assumeIsolated { try work() } }
}

/// Reads `read` inside `withObservationTracking` and counts the invalidations; ``readAgain()``
/// reads once more, as a body runs again after its invalidation.
@MainActor
final class TrackingReader<Value> {
    private let read: @MainActor () -> Value
    /// Invalidations so far (only the main actor sets state here, so no lock is needed; the
    /// box is shared with the onChange closure, which Observation types as Sendable).
    private let box = InvalidationCount()
    private(set) var last: Value

    init(_ read: @escaping @MainActor () -> Value) {
        self.read = read
        last = read()
        last = track()
    }

    var invalidations: Int { box.count }

    func readAgain() { last = track() }

    private func track() -> Value {
        let box = self.box
        return withObservationTracking(read) { box.count += 1 }
    }
}

final class InvalidationCount: @unchecked Sendable {
    var count = 0
}

/// The floor: an observable property an app sets by hand.
@MainActor
@Observable
final class HandSetState {
    var value = 0
}

func registerOutputBenchmarks() {
    let elements = isSmoke ? 1_000 : 100_000
    let name = "An element through a Driver into observed state, read again by a tracking reader (≤ 2x setting it by hand)"

    scenario(name, "ours", operations: elements) { benchmark in
        let relay = BehaviorRelay(value: 0)
        let state = Observed(relay.asDriver(), initial: -1)
        let reader = TrackingReader { state.value }
        precondition(reader.last == 0)
        benchmark.startMeasurement()
        for element in 1...elements {
            relay.accept(element)
            reader.readAgain()
        }
        benchmark.stopMeasurement()
        precondition(reader.invalidations == elements && reader.last == elements, "\(reader.invalidations) invalidations, last \(reader.last)")
    }

    scenario(name, "baseline", operations: elements) { benchmark in
        let state = HandSetState()
        let reader = TrackingReader { state.value }
        benchmark.startMeasurement()
        for element in 1...elements {
            state.value = element
            reader.readAgain()
        }
        benchmark.stopMeasurement()
        precondition(reader.invalidations == elements && reader.last == elements, "\(reader.invalidations) invalidations, last \(reader.last)")
    }
}

struct Note: StoreObject, Equatable {
    static var primaryKey: KeyPath<Note, Int> { \.id }
    var id: Int
    var title: String
    var rank: Int
}

/// A store of `count` notes and a query of all of them sorted by rank.
func notesQuery(count: Int) throws -> (Store, ViewModelQuery<Note, Note>) {
    let store = Store()
    try store.write { tx in
        for id in 0..<count { try tx.add(Note(id: id, title: "Note \(id)", rank: id)) }
    }
    return (store, ViewModelQuery(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "rank")]) { $0 })
}

func registerListBenchmarks() {
    let count = isSmoke ? 1_000 : 10_000
    // 50 commits a sample and 12 s a flavour: about a dozen samples. With 200 commits and 3 s
    // (3 to 6 samples, each flavour in its own stretch of time), the ratio moved from 0.80x to
    // 1.33x between runs of the same code on a loaded machine.
    let commits = isSmoke ? 10 : 50
    let seconds = isSmoke ? 3 : 12
    let name = "\(count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) objects, a one-object commit, delivered to a live list and read (≤ 1.1x a Driver)"

    /// One commit that retitles one note (the list keeps its order: one modification).
    func retitle(_ store: Store, _ commit: Int) throws {
        try store.write { try $0.add(Note(id: commit * 37 % count, title: "Edited \(commit)", rank: commit * 37 % count), update: .modified) }
    }

    scenario(name, "ours", operations: commits, seconds: seconds) { benchmark in
        let (store, query) = try notesQuery(count: count)
        let list = ObservedList(query)
        MainScheduler.drain()
        let reader = TrackingReader { list.elements.count }
        precondition(reader.last == count)
        benchmark.startMeasurement()
        for commit in 1...commits {
            try retitle(store, commit)
            MainScheduler.drain()
            reader.readAgain()
        }
        benchmark.stopMeasurement()
        precondition(reader.invalidations == commits, "\(reader.invalidations) invalidations")
        precondition(list.lastChange?.modifications.count == 1)
    }

    scenario(name, "baseline", operations: commits, seconds: seconds) { benchmark in
        let (store, query) = try notesQuery(count: count)
        var shown: [Note] = []
        var deliveries = 0
        let bag = DisposeBag()
        query.observeChanges(on: MainScheduler.instance)
            .asDriver(onErrorDriveWith: .empty())
            .drive(onNext: { change in
                shown = change.items
                deliveries += 1
            })
            .disposed(by: bag)
        MainScheduler.drain()
        precondition(shown.count == count)
        benchmark.startMeasurement()
        for commit in 1...commits {
            try retitle(store, commit)
            MainScheduler.drain()
            precondition(shown.count == count)
        }
        benchmark.stopMeasurement()
        precondition(deliveries == commits + 1, "\(deliveries) deliveries")
    }
}
