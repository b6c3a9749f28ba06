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

func scenario(_ name: String, _ flavor: String, operations: Int, _ body: @escaping (Benchmark) throws -> Void) {
    registerScenario(name, flavour: flavor, operations: operations, configuration: configuration, body)
}

struct Row: IdentifiableType, Equatable, Hashable {
    let id: Int
    var title: String
    var identity: Int { id }
}

/// 10,000 rows, then the same with 1% changed: 25 deleted, 25 inserted, 50 updated in place.
func rowsBeforeAndAfter() -> ([Row], [Row]) {
    let before = (0..<rowCount).map { Row(id: $0, title: "Row \($0)") }
    var after = before
    for index in stride(from: 9_900, to: 0, by: -400).prefix(25) { after.remove(at: index) }
    for step in 0..<25 { after.insert(Row(id: rowCount + step, title: "New \(step)"), at: step * 397 % after.count) }
    for index in stride(from: 7, to: after.count, by: 197).prefix(50) { after[index].title += " (edited)" }
    return (before, after)
}

func registerDiffBenchmarks() {
    let (before, after) = rowsBeforeAndAfter()
    let name = "Diff of \(rowCount) rows with 1% changes"

    scenario(name, "ours", operations: 1) { benchmark in
        let initial = [AnimatableSectionModel(model: "rows", items: before)]
        let final = [AnimatableSectionModel(model: "rows", items: after)]
        benchmark.startMeasurement()
        let changes = try Diff.differencesForSectionedView(initialSections: initial, finalSections: final)
        benchmark.stopMeasurement()
        let deleted = changes.reduce(0) { $0 + $1.deletedItems.count }
        let inserted = changes.reduce(0) { $0 + $1.insertedItems.count }
        let updated = changes.reduce(0) { $0 + $1.updatedItems.count }
        precondition(deleted == 25 && inserted == 25 && updated == 50, "\(deleted) \(inserted) \(updated)")
    }

    scenario(name, "baseline", operations: 1) { benchmark in
        benchmark.startMeasurement()
        // Identity first (which rows left and came), then content (which rows changed): the
        // same two questions the animated data source answers.
        let identities = after.map(\.id).difference(from: before.map(\.id))
        let old = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })
        let updated = after.filter { row in old[row.id].map { $0 != row } ?? false }.count
        benchmark.stopMeasurement()
        precondition(identities.removals.count == 25 && identities.insertions.count == 25 && updated == 50)
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
