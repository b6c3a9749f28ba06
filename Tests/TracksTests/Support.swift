import Foundation
import HeadlessUI
import Repository
import Streams
import StreamsTesting
import Testing
@testable import Tracks

/// The Tracks screen over the embedded fixture API on a millisecond `TestScheduler`: the test
/// moves the clock, so every answer arrives exactly when the test says.
@MainActor
final class TracksHarness {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
    let network: FixtureNetwork
    let artwork: ArtworkProvider
    let screen: TracksViewController

    /// - Parameters:
    ///   - pageSize: Results per page; all 200 in one page by default.
    ///   - search: What `/search` answers, when not the catalogue.
    init(latency: TracksFixtureLatency = .varied, images: ImageProviding? = nil, tableHeight: Double = 180,
         pageSize: Int = TracksFixtures.count, search: FixtureNetwork.Route? = nil) {
        network = TracksFixtures.network(scheduler: scheduler, latency: latency)
        if let search { network.setRoute(search, for: "/search") }
        artwork = ArtworkProvider(network: network)
        let api = TracksAPI(network: OffsetPagedSearch(network), baseURL: TracksFixtures.baseURL, limit: pageSize)
        screen = TracksViewController(dependency: .init(api: api, term: "midnight", scheduler: scheduler),
                                      images: images ?? artwork, tableHeight: tableHeight)
        Headless.run { _ = screen.view }
    }

    /// The search requests sent, as `offset` values (0 for the first page).
    var searchOffsets: [Int] {
        network.requests.compactMap { request -> Int? in
            guard let url = request.url, url.path == "/search" else { return nil }
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            return Int(items.first { $0.name == "offset" }?.value ?? "0")
        }
    }

    /// Runs what is left on the virtual clock. Answers scheduled there (even cancelled ones,
    /// which a virtual-time scheduler keeps until their time comes) hold the image loader,
    /// which holds the network, which holds the scheduler: running them breaks that cycle.
    isolated deinit {
        Headless.run { scheduler.start() }
    }

    var table: TableView { screen.tableView }

    /// Moves the virtual clock by `milliseconds`, running the answers due, on the main scheduler.
    func advance(_ milliseconds: Int) {
        Headless.run { scheduler.advanceTo(scheduler.clock + milliseconds) }
    }

    /// Lets the search answer.
    func loadRows() {
        advance(TracksFixtures.searchLatencyMilliseconds)
    }

    func scroll(to offset: Double) { Headless.run { table.scroll(to: offset) } }
    func scroll(by delta: Double) { Headless.run { table.scroll(by: delta) } }

    func cell(_ row: Int) -> TrackCell? {
        table.cellForRow(at: IndexPath(row: row, section: 0)) as? TrackCell
    }

    var visibleCells: [TrackCell] { screen.visibleTrackCells }

    /// Artwork requests the fixture server received (the search excluded).
    var artworkRequestPaths: [String] {
        network.requests.compactMap { $0.url?.path }.filter { $0.hasPrefix("/artwork/") }
    }
}

/// An image provider whose answers the test sends through subjects, in any order.
final class ControlledImages: ImageProviding {
    private(set) var subjects: [URL: [PublishSubject<Image>]] = [:]
    private(set) var requested: [URL] = []
    private(set) var subscribed: [URL: Int] = [:]

    func cachedImage(for url: URL) -> Image? { nil }

    func loadImage(for url: URL) -> Observable<Image> {
        let subject = PublishSubject<Image>()
        subjects[url, default: []].append(subject)
        requested.append(url)
        return subject.asObservable().do(
            onSubscribe: { [weak self] in self?.subscribed[url, default: 0] += 1 },
            onDispose: { [weak self] in self?.subscribed[url, default: 0] -= 1 })
    }

    /// Whether a cell is still waiting for `url`.
    func isWaiting(for url: URL) -> Bool { (subscribed[url] ?? 0) > 0 }

    /// Sends every pending request for `url` its image (or `error`). The result is delivered
    /// off the main scheduler: it lands only when the test drains it.
    func answer(_ url: URL, with image: Image? = nil, error: Error? = nil) {
        for subject in subjects[url] ?? [] {
            if let error {
                subject.onError(error)
            } else {
                subject.onNext(image ?? TracksFixtures.artworkImage(row(of: url)))
                subject.onCompleted()
            }
        }
        subjects[url] = nil
    }

    func finish() {
        for list in subjects.values { list.forEach { $0.dispose() } }
        subjects = [:]
    }

    func row(of url: URL) -> Int { Int(url.deletingPathExtension().lastPathComponent) ?? -1 }
}
