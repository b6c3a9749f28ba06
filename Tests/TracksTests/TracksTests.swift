import Foundation
import HeadlessUI
import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import Tracks

/// Images that answer only when told to, in any order, to check the "right cell" rule.
final class ControlledImages: ImageProviding {
    private(set) var requests: [URL: [PublishSubject<Image>]] = [:]
    private var cache: [URL: Image] = [:]

    func cachedImage(for url: URL) -> Image? { cache[url] }

    func loadImage(for url: URL) -> Observable<Image> {
        let subject = PublishSubject<Image>()
        requests[url, default: []].append(subject)
        return subject.asObservable()
    }

    func respond(_ url: URL) {
        let image = Image(width: 8, height: 8, color: .init(r: 1, g: 2, b: 3), name: url.deletingPathExtension().lastPathComponent)
        cache[url] = image
        for subject in requests[url] ?? [] {
            subject.onNext(image)
            subject.onCompleted()
        }
    }

    func fail(_ url: URL) {
        for subject in requests[url] ?? [] { subject.onError(TestError.boom) }
    }
}

@Suite(.resourceCheck) struct TracksTests {
    static let base = TracksAPI.embeddedBaseURL
    static func url(_ number: Int) -> URL { base.appendingPathComponent("artwork/\(number).png") }

    @Test func decodesTheFixturesAndReportsMalformedResultsClearly() throws {
        let tracks = try TracksAPI.decode(TracksAPI.searchJSON())
        #expect(tracks.count == 200)
        #expect(tracks == TracksAPI.tracks())
        #expect(tracks[1].shortDescription == "Track 2 of the demo catalogue")
        #expect(tracks[0].shortDescription == nil)
        let missing = Data(#"{"resultCount": 1, "results": [{"trackName": "A", "artworkUrl60": "http://x/1.png"}]}"#.utf8)
        #expect(throws: TracksError.couldNotDecode(reason: "missing artistName at results.Index 0")) { try TracksAPI.decode(missing) }
        #expect(throws: TracksError.self) { try TracksAPI.decode(Data("not json".utf8)) }
    }

    @Test func loadingThenLoadedAndAFailureRetriedByTheErrorView() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/search": .status(500, body: "down")])
        let search = Self.base.appendingPathComponent("search")
        let viewModel = Headless.run { TracksViewModel(network: network, searchURL: search) }
        #expect(viewModel.state.value == .loading)
        scheduler.start()
        _ = Headless.drain()
        guard case .failed(let message) = viewModel.state.value else {
            Issue.record("expected a failure, got \(viewModel.state.value)")
            return
        }
        #expect(message.contains("500"))
        let screen = Headless.run { TracksViewController(viewModel: viewModel, images: ControlledImages()) }
        _ = Headless.run { screen.view }
        let errorView = screen.table.backgroundView as? NetworkErrorView
        #expect(errorView != nil)
        network.setRoute(.data(TracksAPI.searchJSON(), delay: .seconds(1)), for: "/search")
        Headless.run { _ = errorView?.retryButton.tap() }
        scheduler.start()
        _ = Headless.drain()
        #expect(viewModel.state.value == .loaded)
        #expect(screen.table.numberOfRows(inSection: 0) == 200)
        #expect(screen.table.backgroundView == nil)
    }

    private func loadedScreen(images: ImageProviding) -> TracksViewController {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/search": .data(TracksAPI.searchJSON())])
        let viewModel = Headless.run { TracksViewModel(network: network, searchURL: Self.base.appendingPathComponent("search")) }
        scheduler.start()
        _ = Headless.drain()
        let screen = Headless.run { TracksViewController(viewModel: viewModel, images: images) }
        _ = Headless.run { screen.view }
        return screen
    }

    @Test func outOfOrderArtworkAfterFastScrollingLandsInTheRightCells() throws {
        let images = ControlledImages()
        let screen = loadedScreen(images: images)
        // Rows 0–4 ask for their artwork; scroll away before any answers, to rows 100–104.
        Headless.run { screen.table.scroll(to: 50 * 100) }
        // Answers arrive late and in reverse order, for the old rows and the new ones.
        for number in (1...5).reversed() { images.respond(Self.url(number)) }
        for number in [105, 101, 103, 102, 104] { images.respond(Self.url(number)) }
        _ = Headless.drain()
        for (offset, cell) in screen.table.visibleCells.enumerated() {
            let track = try #require(cell as? TrackCell)
            #expect(track.artwork.image?.name == "\(101 + offset)", "row \(100 + offset)")
            #expect(track.titleLabel.text == TracksAPI.tracks()[100 + offset].trackName)
        }
        #expect(screen.cellsCreated <= 6)
    }

    @Test func aFailedArtworkShowsTheErrorLineOnlyInItsOwnRow() throws {
        let images = ControlledImages()
        let screen = loadedScreen(images: images)
        images.fail(Self.url(2))
        _ = Headless.drain()
        let cells = screen.table.visibleCells.compactMap { $0 as? TrackCell }
        #expect(cells.map(\.errorLabel.isHidden) == [true, false, true, true, true])
        #expect(cells[1].artwork.image?.name == "placeholder")
        // The cell is reused for another row: no stale error line.
        Headless.run { screen.table.scroll(to: 50 * 10) }
        _ = Headless.drain()
        #expect(screen.table.visibleCells.compactMap { ($0 as? TrackCell)?.errorLabel.isHidden }.allSatisfy { $0 })
    }

    @Test func scrollingTwoHundredRowsReusesCellsAndRequestsEachArtworkOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: TracksAPI.routes(latency: .seconds(1)))
        let images = ImageLoader.png(network: network)
        let screen = loadedScreen(images: images)
        for round in 0..<2 {
            for offset in stride(from: 0.0, through: 50 * 195, by: 50 * 5) {
                Headless.run { screen.table.scroll(to: offset) }
                scheduler.start()
                _ = Headless.drain()
            }
            _ = round
        }
        #expect(screen.cellsCreated <= 7)
        #expect(screen.table.numberOfRows(inSection: 0) == 200)
        let artworkRequests = network.requests.filter { $0.url?.path.hasPrefix("/artwork/") == true }
        #expect(artworkRequests.count == 200 - 200 / TracksAPI.failingEvery + 200 / TracksAPI.failingEvery * 2)   // failures are not cached
        #expect(Set(artworkRequests.compactMap(\.url)).count == 200)
    }

    @Test func theDemoPrintsDeterministicTextAndItsFigures() {
        var first = ""
        var second = ""
        let summary = TracksDemo.run { first += $0 }
        TracksDemo.run { second += $0 }
        #expect(first == second)
        #expect(summary == TracksDemo.Summary(rows: 200, cellsCreated: 5, imageRequests: 15, distinctArtworkShown: 15))
        #expect(first.contains("Label \"Artwork unavailable\""))
        #expect(first.contains("TrackCell [0,120]"))
    }
}
