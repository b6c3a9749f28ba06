import Benchmark
import BenchmarkSupport
import Foundation
import HeadlessUI
import MVVM
import Repository
import Streams

// The HeadlessUI suite: the animated data source's diff against Swift's own
// `CollectionDifference` (the baseline), and a 10,000-row table scrolled from top to bottom
// while its cells load images (ours only: the figures that matter are cells created and
// requests sent, which the scenario names state and `precondition`s check).

let benchmarks: @Sendable () -> Void = {
    registerDiffBenchmarks()
    registerScrollBenchmarks()
}

let rowCount = 10_000

var configuration: Benchmark.Configuration { suiteConfiguration(warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 100) }

/// Registers a scenario whose body runs on the main actor, as HeadlessUI's views are isolated:
/// on the main thread at once when the runner is there, otherwise on the main queue.
func scenario(_ name: String, _ flavor: String, operations: Int, _ body: @escaping @MainActor (Benchmark) throws -> Void) {
    registerScenario(name, flavour: flavor, operations: operations, configuration: configuration) { benchmark in
        // The runner waits for the body, so the benchmark is used by one thread at a time.
        nonisolated(unsafe) let benchmark = benchmark
        try onMainActor { try body(benchmark) }
    }
}

func onMainActor(_ work: @MainActor () throws -> Void) throws {
    if Thread.isMainThread { return try MainActor.assumeIsolated { try work() } }
    try DispatchQueue.main.sync { try MainActor.assumeIsolated { try work() } }
}

struct Row: IdentifiableType, Equatable, Hashable {
    let id: Int
    var title: String
    var identity: Int { id }
}

/// `count` rows, then the same with 1% changed: a 400th deleted, a 400th inserted, a 200th
/// updated in place (25, 25 and 50 of 10,000).
func rowsBeforeAndAfter(count: Int) -> ([Row], [Row]) {
    let before = (0..<count).map { Row(id: $0, title: "Row \($0)") }
    var after = before
    for index in stride(from: count - 100, to: 0, by: -400).prefix(count / 400) { after.remove(at: index) }
    for step in 0..<count / 400 { after.insert(Row(id: count + step, title: "New \(step)"), at: step * 397 % after.count) }
    // Edit rows that were there before (editing an inserted row would be no update).
    let edited = stride(from: 7, to: after.count, by: 197).filter { after[$0].id < count }.prefix(count / 200)
    for index in edited { after[index].title += " (edited)" }
    return (before, after)
}

func registerDiffBenchmarks() {
    for count in [rowCount, 10 * rowCount] {
        let (before, after) = rowsBeforeAndAfter(count: count)
        registerDiffScenario("Diff of \(count) rows with 1% changes", before: [before], after: [after], changes: (count / 400, count / 400, count / 200))
    }
    // The same number of rows in 10 sections of 1,000, each changed the same way.
    let perSection = rowCount / 10
    let sections = (0..<10).map { section in
        let (before, after) = rowsBeforeAndAfter(count: perSection)
        let shift = { (rows: [Row]) in rows.map { Row(id: $0.id + section * 2 * rowCount, title: $0.title) } }
        return (shift(before), shift(after))
    }
    registerDiffScenario("Diff of 10 x \(perSection) rows with 1% changes", before: sections.map(\.0), after: sections.map(\.1), changes: (10 * (perSection / 400), 10 * (perSection / 400), 10 * (perSection / 200)))
    // Nothing changed: about one pass of comparisons.
    let rows = rowsBeforeAndAfter(count: rowCount).0
    registerDiffScenario("Diff of \(rowCount) rows, nothing changed", before: [rows], after: [rows], changes: (0, 0, 0))
}

/// Ours against the baseline, diffing the sections `before` into `after`, which differ by
/// `changes` (deleted, inserted, updated). Ours gives RxDataSources' staged changesets.
func registerDiffScenario(_ name: String, before: [[Row]], after: [[Row]], changes expected: (deleted: Int, inserted: Int, updated: Int)) {
    scenario(name, "ours", operations: 1) { benchmark in
        let initial = before.enumerated().map { AnimatableSectionModel(model: "rows \($0.offset)", items: $0.element) }
        let final = after.enumerated().map { AnimatableSectionModel(model: "rows \($0.offset)", items: $0.element) }
        benchmark.startMeasurement()
        let changes = try Diff.differencesForSectionedView(initialSections: initial, finalSections: final)
        benchmark.stopMeasurement()
        let deleted = changes.reduce(0) { $0 + $1.deletedItems.count }
        let inserted = changes.reduce(0) { $0 + $1.insertedItems.count }
        let updated = changes.reduce(0) { $0 + $1.updatedItems.count }
        precondition(deleted == expected.deleted && inserted == expected.inserted && updated == expected.updated, "\(deleted) \(inserted) \(updated)")
    }

    scenario(name, "baseline", operations: 1) { benchmark in
        benchmark.startMeasurement()
        // Identity first (which rows left and came), then content (which rows changed): the
        // same two questions the animated data source answers, section by section.
        var removals = 0, insertions = 0, updated = 0
        for (old, new) in zip(before, after) {
            let identities = new.map(\.id).difference(from: old.map(\.id))
            removals += identities.removals.count
            insertions += identities.insertions.count
            let previous = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0) })
            updated += new.filter { row in previous[row.id].map { $0 != row } ?? false }.count
        }
        benchmark.stopMeasurement()
        precondition(removals == expected.deleted && insertions == expected.inserted && updated == expected.updated)
    }
}

/// A cell with a label and an image view.
final class ImageCell: TableViewCell {
    let label = Label()
    let picture = ImageView()
    required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
        contentView.addSubview(label)
        contentView.addSubview(picture)
    }
}

func registerScrollBenchmarks() {
    let screens = rowCount / 10                 // 10 rows of 44 points per 440-point screen
    let name = "Scroll a \(rowCount)-row table with images, per screen (≤ 12 cells created, 1 request per row)"

    scenario(name, "ours", operations: screens) { benchmark in
        let clock = VirtualTimeScheduler(initialClock: 0, converter: IntegerVirtualTimeConverter(resolution: 0.001))
        let image = Image(width: 4, height: 4, color: .init(r: 9, g: 9, b: 9)).pngData()
        var routes: [String: FixtureNetwork.Route] = [:]
        for row in 0..<rowCount { routes["/img/\(row).png"] = .data(image, delay: .milliseconds(5)) }
        let network = FixtureNetwork(scheduler: clock, routes: routes)
        let images = ImageLoader.png(network: network, memoryCostLimit: 256 * 1024)
        let table = TableView(height: 440, rowHeight: 44)
        table.register(ImageCell.self, forCellReuseIdentifier: "Cell")
        var created = Set<ObjectIdentifier>()
        let bag = DisposeBag()
        Headless.run {
            Observable.just(Array(0..<rowCount))
                .bind(to: table.rx.items(cellIdentifier: "Cell", cellType: ImageCell.self)) { row, _, cell in
                    created.insert(ObjectIdentifier(cell))
                    cell.label.text = "Row \(row)"
                    cell.picture.load(URL(string: "http://img.local/img/\(row).png")!, from: images)
                }
                .disposed(by: bag)
        }
        benchmark.startMeasurement()
        for screen in 1...screens {
            Headless.run {
                table.scroll(to: Double(screen) * 440)
                clock.start()
            }
            _ = Headless.drain()
        }
        benchmark.stopMeasurement()
        precondition(created.count <= 12, "\(created.count) cells")
        precondition(network.totalRequestCount == rowCount, "\(network.totalRequestCount) requests")
    }
}
