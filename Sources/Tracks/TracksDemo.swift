import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeadlessUI
import Repository
import Streams

/// The demo `pizzaiolo tracks` prints: a search, then the table scrolled to a few places, with
/// the cells created and the image requests sent. Deterministic on the embedded API (answers on
/// a virtual clock).
public enum TracksDemo {
    /// The result of a run, for tests.
    public struct Summary: Equatable, Sendable {
        /// Rows in the table.
        public let rows: Int
        /// Cells ever created.
        public let cellsCreated: Int
        /// Artwork requests sent.
        public let imageRequests: Int
        /// Distinct artwork URLs that were shown.
        public let distinctArtworkShown: Int
    }

    /// Runs the demo.
    ///
    /// - Parameters:
    ///   - server: A real server's address (it must answer `/search?term=…` and the artwork);
    ///     `nil` for the embedded API.
    ///   - write: Receives the text.
    /// - Returns: The figures of the run.
    @discardableResult
    public static func run(server: URL? = nil, write: (String) -> Void) -> Summary {
        let clock = VirtualTimeScheduler(initialClock: 0, converter: IntegerVirtualTimeConverter(resolution: 0.001))
        let network: Network
        let baseURL: URL
        var fixture: FixtureNetwork?
        if let server {
            network = URLSessionNetwork(configuration: NetworkConfiguration(timeout: 10), scheduler: MainScheduler.instance)
            baseURL = server
        } else {
            let embedded = FixtureNetwork(scheduler: clock, routes: TracksAPI.routes(latency: .milliseconds(80)))
            fixture = embedded
            network = embedded
            baseURL = TracksAPI.embeddedBaseURL
        }
        let counting = CountingNetwork(base: network)
        let images = ImageLoader.png(network: counting)
        var components = URLComponents(url: baseURL.appendingPathComponent("search"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "term", value: "night")]
        let screen = Headless.run {
            TracksViewController(viewModel: TracksViewModel(network: counting, searchURL: components.url!), images: images)
        }
        _ = Headless.run { screen.view }
        func settle() {
            if fixture != nil {
                repeat {
                    Headless.run { clock.start() }
                    _ = Headless.drain()
                } while counting.inFlight > 0
            } else {
                _ = MainScheduler.run(until: { counting.inFlight == 0 }, timeout: 10)
                _ = Headless.drain()
            }
        }
        var shown = Set<URL>()
        func show(_ step: Int, _ text: String) {
            write("\n── \(step). \(text)\n")
            write(Headless.run { screen.render() } + "\n")
            for cell in screen.table.visibleCells {
                if let url = (cell as? TrackCell)?.artwork.imageURL { shown.insert(url) }
            }
        }

        write("Tracks: a search-results table whose artwork loads lazily into the right cells.\n")
        show(1, "Searching: a skeleton until the results arrive.")
        settle()
        show(2, "200 results; five rows fit. Placeholders first, then each row's own artwork.")
        Headless.run { screen.table.scroll(to: 50 * 15) }
        show(3, "Scroll fast to row 16: reused cells show placeholders while their artwork loads…")
        settle()
        show(4, "…and each gets the artwork of its own row. Row 17's artwork fails: an error line.")
        Headless.run { screen.table.scroll(to: 50 * 120) }
        settle()
        show(5, "Further down, to row 121.")
        Headless.run { screen.table.scroll(to: 0) }
        settle()
        show(6, "Back to the top: the artwork comes from the cache, no new request.")

        let summary = Summary(rows: screen.table.numberOfRows(inSection: 0), cellsCreated: screen.cellsCreated,
                              imageRequests: counting.sent - 1, distinctArtworkShown: shown.count)
        write("\n\(summary.rows) rows, \(summary.cellsCreated) cells created; \(summary.imageRequests) artwork requests for \(summary.distinctArtworkShown) artworks shown.\n")
        return summary
    }
}

/// Counts requests, and those still in flight.
final class CountingNetwork: Network, @unchecked Sendable {
    private let base: Network
    private let lock = NSLock()
    private var running = 0
    private var total = 0

    init(base: Network) { self.base = base }

    var inFlight: Int { lock.withLock { running } }
    var sent: Int { lock.withLock { total } }

    func fetch(_ request: URLRequest) -> Single<Data> {
        base.fetch(request).asObservable().do(
            onSubscribe: { [self] in lock.withLock { running += 1; total += 1 } },
            onDispose: { [self] in lock.withLock { running -= 1 } })
            .asSingle()
    }
}
