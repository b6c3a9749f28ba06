import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeadlessUI
import Repository
import Streams

/// The `pizzaiolo tracks` walkthrough: shows the Tracks table, scrolls it, and reports how
/// few cells and requests it took.
///
///     let summary = TracksDemo.run(write: { print($0) })
///     // … the table at each step …
///     // summary.cellsCreated == 5, summary.rows == 200
///
/// With the embedded API (the default) the run is deterministic: the fixture network answers
/// on a virtual clock that the demo advances itself, so the output is the same on every
/// machine. With `api`, requests go to a real server and the demo waits (up to 15 s per step)
/// for the visible cells to settle.
@MainActor
public enum TracksDemo {
    /// The figures the walkthrough ends with.
    public struct Summary: Equatable, Sendable {
        /// Whether the search succeeded (the walkthrough stops early otherwise).
        public var succeeded: Bool
        /// Rows in the table.
        public var rows: Int
        /// Cell objects the table created (visible plus waiting for reuse).
        public var cellsCreated: Int
        /// Artwork requests sent.
        public var imageRequests: Int
        /// Distinct artwork URLs of the rows that were displayed.
        public var distinctURLsShown: Int
        /// Requests for a URL that had been requested before.
        public var repeatedRequests: Int
        /// Requests cancelled because their cell was reused before the answer.
        public var cancelledRequests: Int
        /// Artwork URLs that failed to load (404, bytes that are not an image, …).
        public var failedArtwork: Int
        /// Times a visible cell was seen showing another row's artwork (must be 0).
        public var wrongImagesSeen: Int
    }

    /// The term the walkthrough searches for.
    public static let term = "midnight"

    /// Runs the walkthrough, writing its text through `write` (one call per line or block).
    ///
    /// - Parameters:
    ///   - api: A real server's root (`http://127.0.0.1:8080`); `nil` for the embedded fixture
    ///     API on a virtual clock.
    ///   - write: Receives the output.
    /// - Returns: The figures printed in the summary.
    @discardableResult
    public static func run(api: URL? = nil, write: (String) -> Void) -> Summary {
        let clock: DemoClock
        let searchNetwork: Network
        let artworkNetwork: RequestLog
        let baseURL: URL
        if let api {
            clock = RealClock()
            baseURL = api
            searchNetwork = URLSessionNetwork(scheduler: MainScheduler.instance)
            artworkNetwork = RequestLog(URLSessionNetwork(scheduler: SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "tracks.artwork")))
            write("Tracks: search results with artwork loaded lazily into reusable cells (server \(api.absoluteString)).")
        } else {
            let virtual = VirtualClock()
            clock = virtual
            baseURL = TracksFixtures.baseURL
            let fixture = TracksFixtures.network(scheduler: virtual.virtualScheduler, latency: .varied)
            searchNetwork = OffsetPagedSearch(fixture)
            artworkNetwork = RequestLog(fixture)
            write("Tracks: search results with artwork loaded lazily into reusable cells (embedded fixture API on a virtual clock: the search takes \(TracksFixtures.searchLatencyMilliseconds) ms, each artwork 60–299 ms).")
        }
        return withoutActuallyEscaping(write) { write in
            let walkthrough = Walkthrough(
                screen: TracksViewController(
                    dependency: TracksViewModel.Dependency(
                        api: TracksAPI(network: searchNetwork, baseURL: baseURL), term: term, scheduler: clock.scheduler),
                    images: ArtworkProvider(network: artworkNetwork)),
                requests: artworkNetwork,
                clock: clock,
                write: write)
            return walkthrough.run()
        }
    }
}

/// The steps of the walkthrough, over one screen.
@MainActor
private final class Walkthrough {
    let screen: TracksViewController
    let requests: RequestLog
    let clock: DemoClock
    let write: (String) -> Void
    var shownURLs = Set<URL>()
    var wrongImages = 0
    let bag = DisposeBag()
    var step = 0

    init(screen: TracksViewController, requests: RequestLog, clock: DemoClock, write: @escaping (String) -> Void) {
        self.screen = screen
        self.requests = requests
        self.clock = clock
        self.write = write
    }

    var table: TableView { screen.tableView }

    func run() -> TracksDemo.Summary {
        Headless.run {
            _ = screen.view          // viewDidLoad binds the view model: the search starts
            table.rx.willDisplayCell
                .subscribe(onNext: { [weak self] cell, _ in
                    if let url = (cell as? TrackCell)?.artworkView.imageURL { self?.shownURLs.insert(url) }
                })
                .disposed(by: bag)
        }
        show("Search “\(TracksDemo.term)”: the request is on its way, so the table shows a skeleton.")

        let loaded = clock.settle { self.rowCount > 0 || self.table.backgroundView is NetworkErrorView }
        guard loaded, rowCount > 0 else {
            show("The search failed: the error view offers Retry.")
            return finish(succeeded: false)
        }
        show("\(rowCount) results arrived: the visible rows show their text, with a placeholder until their artwork loads.")

        let firstArrivals = settleVisibleArtwork()
        show("The artwork arrived \(firstArrivals == firstArrivals.sorted() ? "in row order" : "out of order") (\(describe(firstArrivals))), each in its own row's cell\(failureNote()).")

        let before = requests.requestCount, cancelledBefore = requests.cancelledCount, rowsBefore = rowCount
        let frames = 40, distance = 150.0
        for _ in 0..<frames {
            Headless.run {
                table.scroll(by: distance)
                checkImages()
            }
            clock.wait(milliseconds: 16)
            Headless.run { checkImages() }
        }
        let flingRequests = requests.requestCount - before
        let flingCancelled = requests.cancelledCount - cancelledBefore
        let cells = Headless.run { table.cellCount }
        show("A fling to row \(firstVisibleRow) (\(frames) frames of \(Int(distance)) points, 16 ms apart): \(flingRequests) rows passed through \(cells) cells; \(flingCancelled == 0 ? "no download was cancelled on reuse (a reused cell's download finishes into the cache)" : "\(flingCancelled) requests were cancelled on reuse"), \(wrongImages == 0 ? "no image landed in a wrong cell" : "\(wrongImages) images landed in a wrong cell")\(growth(from: rowsBefore)).")

        let flingArrivals = settleVisibleArtwork()
        show("Where the fling stopped, the artwork arrived (\(describe(flingArrivals)))\(failureNote()).")

        let beforeTop = requests.requestCount
        Headless.run {
            table.scroll(to: 0)
            checkImages()
        }
        clock.settle { self.visibleCellsSettled }
        let topRequests = requests.requestCount - beforeTop
        show("Back to the top: artwork from the memory cache, failures remembered — \(topRequests == 0 ? "no request sent" : "\(topRequests) requests sent").")
        return finish(succeeded: true)
    }

    // MARK: Helpers

    /// `; nearing the end of the rows loaded asked for the next page: 50 rows became 100`, or
    /// nothing when no page was added.
    func growth(from rows: Int) -> String {
        let now = rowCount
        return now > rows ? "; nearing the end of the rows loaded asked for the next page: \(rows) rows became \(now)" : ""
    }

    var rowCount: Int { Headless.run { table.numberOfRows(inSection: 0) } }

    var visibleCellsSettled: Bool {
        Headless.run {
            screen.visibleTrackCells.allSatisfy { $0.artworkState != .loading }
        }
    }

    var firstVisibleRow: Int {
        Headless.run { table.indexPathsForVisibleRows.first?.row ?? 0 }
    }

    /// Lets time pass until every visible cell has its artwork or its error line, and returns
    /// the rows in the order they settled (rows settling together in row order).
    func settleVisibleArtwork() -> [Int] {
        var waiting: [Int] = Headless.run {
            screen.visibleTrackCells.filter { $0.artworkState == .loading }.compactMap { $0.indexPath?.row }
        }
        var arrivals: [Int] = []
        clock.settle {
            Headless.run {
                let settled = waiting.filter { row in
                    let cell = table.cellForRow(at: IndexPath(row: row, section: 0)) as? TrackCell
                    return cell?.artworkState != .loading
                }
                arrivals += settled
                waiting.removeAll { settled.contains($0) }
                checkImages()
            }
            return waiting.isEmpty
        }
        return arrivals
    }

    func describe(_ rows: [Int]) -> String {
        switch rows.count {
        case 0: return "nothing was waiting"
        case 1: return "row \(rows[0])"
        default: return "rows " + rows.map(String.init).joined(separator: ", ")
        }
    }

    /// `; row 2 failed (HTTP 404), so its cell shows the error line` for failed visible rows.
    func failureNote() -> String {
        let failed: [String] = Headless.run {
            screen.visibleTrackCells.compactMap { cell in
                guard case .failed(let reason) = cell.artworkState, let row = cell.indexPath?.row else { return nil }
                return "row \(row) failed (\(reason))"
            }
        }
        switch failed.count {
        case 0: return ""
        case 1: return "; \(failed[0]), so its cell shows the error line"
        default: return "; \(failed.joined(separator: " and ")), so their cells show the error line"
        }
    }

    /// Counts visible cells showing an image that is neither the placeholder nor their row's.
    func checkImages() {
        for cell in screen.visibleTrackCells {
            guard let image = cell.artworkView.image, image != TrackCell.placeholder else { continue }
            let rowURL = cell.indexPath.flatMap { try? table.rx.model(at: $0) as TrackRow }?.artworkURL
            let expected = rowURL?.deletingPathExtension().lastPathComponent
            if image.name != expected { wrongImages += 1 }
        }
    }

    func show(_ explanation: String) {
        step += 1
        write("")
        write("\(step). \(explanation)")
        write(Headless.run { screen.render() })
    }

    func finish(succeeded: Bool) -> TracksDemo.Summary {
        let summary = Headless.run { () -> TracksDemo.Summary in
            let urls = requests.requestedURLs
            return TracksDemo.Summary(
                succeeded: succeeded,
                rows: table.numberOfRows(inSection: 0),
                cellsCreated: table.cellCount,
                imageRequests: urls.count,
                distinctURLsShown: shownURLs.count,
                repeatedRequests: urls.count - Set(urls).count,
                cancelledRequests: requests.cancelledCount,
                failedArtwork: (screen.images as? ArtworkProvider)?.failureCount ?? 0,
                wrongImagesSeen: wrongImages)
        }
        write("")
        write("Summary: \(summary.cellsCreated) cells created for \(summary.rows) rows; \(summary.imageRequests) image requests for \(summary.distinctURLsShown) distinct artwork URLs shown (\(summary.repeatedRequests) repeated, \(summary.cancelledRequests) cancelled by reuse); \(summary.failedArtwork) artworks failed; \(summary.wrongImagesSeen) images landed in a wrong cell.")
        clock.finish()
        return summary
    }
}

/// How the walkthrough lets time pass.
@MainActor
protocol DemoClock: AnyObject {
    /// Where the search's results are delivered.
    var scheduler: ImmediateSchedulerType { get }
    /// Lets `milliseconds` pass, running what falls due.
    func wait(milliseconds: Int)
    /// Lets time pass until `condition` holds (or a generous limit passes).
    @discardableResult
    func settle(until condition: () -> Bool) -> Bool
    /// Runs what is left, so nothing stays scheduled after the walkthrough.
    func finish()
}

/// Virtual time for the embedded API: deterministic, and instant in wall-clock terms.
@MainActor
final class VirtualClock: DemoClock {
    let virtualScheduler = VirtualTimeScheduler(initialClock: 0, converter: IntegerVirtualTimeConverter(resolution: 0.001))
    var scheduler: ImmediateSchedulerType { virtualScheduler }

    func wait(milliseconds: Int) {
        Headless.run { virtualScheduler.advanceTo(virtualScheduler.clock + milliseconds) }
    }

    func settle(until condition: () -> Bool) -> Bool {
        for _ in 0..<1_000 {
            if condition() { return true }
            wait(milliseconds: 10)
        }
        return condition()
    }

    func finish() {
        Headless.run { virtualScheduler.start() }
    }
}

/// Wall-clock time for a real server: the main scheduler is drained while waiting.
@MainActor
final class RealClock: DemoClock {
    var scheduler: ImmediateSchedulerType { MainScheduler.asyncInstance }

    func wait(milliseconds: Int) {
        MainScheduler.run(until: { false }, timeout: Double(milliseconds) / 1_000)
    }

    func settle(until condition: () -> Bool) -> Bool {
        MainScheduler.run(until: condition, timeout: 15)
    }

    func finish() {
        Headless.drain()
    }
}
