import Foundation
import HeadlessUI
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing
@testable import Tracks

@MainActor @Suite(.resourceCheck) struct TracksViewControllerTests {
    @Test func skeletonThenRowsWithPlaceholdersThenArtwork() {
        let harness = TracksHarness()
        #expect(harness.screen.render() == """
        == Tracks ==
        View
          Label "Searching “midnight”…"
          TableView 0 rows, offset 0
            SkeletonView ░░░░░░ ×3 'Loading'
        """)
        harness.loadRows()
        #expect(harness.screen.render() == """
        == Tracks ==
        View
          Label "200 results for “midnight”"
          TableView 200 rows, offset 0
            TrackCell [0,0]
              ImageView [image placeholder 60×60]
              Label "Midnight Lanterns — Juniper Vale"
              Label "A slow-burning synth-pop ballad."
            TrackCell [0,1]
              ImageView [image placeholder 60×60]
              Label "Paper Orchard — The Copperline Quartet"
              Label "A hazy synth-pop instrumental."
            TrackCell [0,2]
              ImageView [image placeholder 60×60]
              Label "Velvet Kites — Ines Marlowe"
              Label "A bright synth-pop duet."
        """)
        // Row 0 answers after 161 ms, row 2 (a 404) after 195 ms, row 1 after 298 ms.
        harness.advance(161)
        #expect(harness.visibleCells.map(\.artworkState) == [.loaded, .loading, .loading])
        harness.advance(34)
        #expect(harness.visibleCells.map(\.artworkState) == [.loaded, .loading, .failed(reason: "HTTP 404")])
        harness.advance(103)
        #expect(harness.visibleCells.map(\.artworkState) == [.loaded, .loaded, .failed(reason: "HTTP 404")])
        #expect(harness.cell(0)?.artworkView.image == TracksFixtures.artworkImage(0))
        #expect(harness.cell(1)?.artworkView.image == TracksFixtures.artworkImage(1))
    }

    @Test func cellsAreReusedWhileScrollingTwoHundredRows() {
        let harness = TracksHarness(latency: .immediate)
        harness.loadRows()
        let rows = TracksFixtures.tracks.map(TrackRow.init(track:))
        var cellsSeen = Set<ObjectIdentifier>()
        var mostVisible = 0
        func check() {
            let visible = harness.visibleCells
            mostVisible = max(mostVisible, visible.count)
            for cell in visible {
                cellsSeen.insert(ObjectIdentifier(cell))
                guard let row = cell.indexPath?.row else {
                    Issue.record("a visible cell without a row")
                    continue
                }
                #expect(cell.titleLabel.text == rows[row].title)
                #expect(cell.artworkView.imageURL == rows[row].artworkURL)
            }
        }
        // Down to the last row and back up, 45 points at a time, answering as we go.
        while harness.table.contentOffset < harness.table.maximumContentOffset {
            harness.scroll(by: 45)
            check()
            harness.advance(1)
            check()
        }
        #expect(harness.table.indexPathsForVisibleRows.last?.row == 199)
        while harness.table.contentOffset > 0 {
            harness.scroll(by: -45)
            check()
        }
        #expect(mostVisible == 4)
        #expect(harness.table.cellCount <= mostVisible + 1, "cells created: \(harness.table.cellCount)")
        #expect(cellsSeen.count == harness.table.cellCount)
    }

    @Test func afterAFastFlingEveryCellShowsItsOwnRowsArtwork() {
        let harness = TracksHarness()
        harness.loadRows()
        var wrong = 0
        func checkNoForeignImage() {
            for cell in harness.visibleCells {
                guard let row = cell.indexPath?.row, let image = cell.artworkView.image, image != TrackCell.placeholder else { continue }
                if image != TracksFixtures.artworkImage(row) { wrong += 1 }
            }
        }
        // A fling of 60 frames, 16 ms apart, with answers (60–299 ms) arriving out of order.
        for frame in 0..<60 {
            harness.scroll(by: frame < 30 ? 170 : 90)
            checkNoForeignImage()
            harness.advance(16)
            checkNoForeignImage()
        }
        harness.advance(300)
        checkNoForeignImage()
        #expect(wrong == 0)
        let visible = harness.visibleCells
        #expect(visible.count >= 3)
        for cell in visible {
            let row = cell.indexPath!.row
            if TracksFixtures.missingArtwork.contains(row) || TracksFixtures.unreadableArtwork.contains(row) {
                #expect(cell.artworkView.image == TrackCell.placeholder)
                #expect(!cell.errorLabel.isHidden)
            } else {
                #expect(cell.artworkView.image == TracksFixtures.artworkImage(row), "row \(row)")
                #expect(cell.errorLabel.isHidden)
            }
        }
    }

    @Test func lateOutOfOrderAnswersNeverLandInAReusedCell() {
        let images = ControlledImages()
        let harness = TracksHarness(latency: .immediate, images: images)
        harness.loadRows()
        let url = TracksFixtures.artworkURL
        #expect(images.requested == [url(0), url(1), url(2)])
        let firstCells = harness.visibleCells

        // Rows 2 and 0 answer (in that order) but the deliveries are still queued for the main
        // scheduler when the table scrolls: the cells now show rows 3–5.
        Headless.run {
            images.answer(url(2))
            images.answer(url(0))
            harness.table.scroll(to: 180)
        }
        #expect(harness.table.indexPathsForVisibleRows.map(\.row) == [3, 4, 5])
        #expect(Set(harness.visibleCells.map(ObjectIdentifier.init)) == Set(firstCells.map(ObjectIdentifier.init)))
        #expect(harness.visibleCells.allSatisfy { $0.artworkView.image == TrackCell.placeholder })
        // Row 1's request was cancelled when its cell moved on.
        #expect(!images.isWaiting(for: url(1)))

        // Rows 5, 3, 4 answer in that order: each image lands in its own row's cell.
        Headless.run { images.answer(url(5)) }
        #expect(harness.visibleCells.map(\.artworkState) == [.loading, .loading, .loaded])
        Headless.run {
            images.answer(url(3))
            images.answer(url(4))
        }
        for row in 3...5 {
            #expect(harness.cell(row)?.artworkView.image == TracksFixtures.artworkImage(row))
        }
        images.finish()
    }

    @Test func aFailedArtworkShowsTheErrorLine() {
        let harness = TracksHarness()
        harness.loadRows()
        harness.advance(300)
        #expect(harness.cell(2)?.artworkState == .failed(reason: "HTTP 404"))
        #expect(harness.cell(2)?.render() == """
        TrackCell [0,2]
          ImageView [image placeholder 60×60]
          Label "Velvet Kites — Ines Marlowe"
          Label "A bright synth-pop duet."
          Label "⚠ artwork unavailable (HTTP 404)"
        """)
        #expect(harness.cell(0)?.errorLabel.isHidden == true)
        #expect(harness.cell(1)?.errorLabel.isHidden == true)

        harness.scroll(to: 101 * 60)
        harness.advance(300)
        #expect(harness.cell(101)?.artworkState == .failed(reason: "not an image"))
        #expect(harness.cell(101)?.errorLabel.text == "⚠ artwork unavailable (not an image)")
        #expect(harness.cell(101)?.artworkView.image == TrackCell.placeholder)
        #expect(harness.cell(102)?.artworkState == .loaded)
    }

    @Test func aLateFailureNeverLandsInAReusedCell() {
        let images = ControlledImages()
        let harness = TracksHarness(latency: .immediate, images: images)
        harness.loadRows()
        let url = TracksFixtures.artworkURL
        Headless.run {
            images.answer(url(1), error: NetworkError.badStatus(code: 404, body: Data()))
            harness.table.scroll(to: 180)
        }
        #expect(harness.visibleCells.allSatisfy { $0.errorLabel.isHidden && $0.artworkState == .loading })
        // A failure for a row still shown lands in that row's cell only.
        Headless.run { images.answer(url(4), error: NetworkError.timedOut) }
        #expect(harness.visibleCells.map(\.artworkState) == [.loading, .failed(reason: "timed out"), .loading])
        // When the row is shown again, its cell starts over: no stale error line.
        harness.scroll(to: 0)
        #expect(harness.visibleCells.allSatisfy { $0.errorLabel.isHidden })
        images.finish()
    }

    @Test func oneRequestPerURLWhenScrollingBackAndForth() {
        let harness = TracksHarness()
        harness.loadRows()
        for _ in 0..<3 {
            for offset in stride(from: 0.0, through: 1_800, by: 60) {
                harness.scroll(to: offset)
                harness.advance(300)
            }
            for offset in stride(from: 1_800.0, through: 0, by: -90) {
                harness.scroll(to: offset)
                harness.advance(300)
            }
        }
        let paths = harness.artworkRequestPaths
        #expect(paths.count == 33)                    // rows 0–32 were shown
        #expect(Set(paths).count == paths.count)     // none twice, broken ones (2, 18) included
        #expect(paths.contains("/artwork/2.png") && paths.contains("/artwork/18.png"))
        #expect(harness.artwork.failureCount == 2)
        #expect(harness.cell(2)?.artworkState == .failed(reason: "HTTP 404"))
    }

    @Test func retryFromTheErrorView() {
        let harness = TracksHarness(search: .status(503, body: "busy", delay: .milliseconds(50)))
        harness.advance(50)
        #expect(harness.screen.render() == """
        == Tracks ==
        View
          Label "The search failed (HTTP 503)."
          TableView 0 rows, offset 0
            NetworkErrorView
              Label "The search failed (HTTP 503)."
              Button [Retry]
        """)
        harness.network.setRoute(.data(TracksFixtures.searchJSON, delay: .milliseconds(50)), for: "/search")
        Headless.run { (harness.table.backgroundView as? NetworkErrorView)?.retryButton.tap() }
        #expect(harness.table.backgroundView is SkeletonView)
        harness.advance(50)
        #expect(harness.table.numberOfRows(inSection: 0) == 200)
        #expect(harness.table.backgroundView == nil)
        #expect(harness.network.requestCount(for: "/search") == 2)
    }

    @Test func closingTheScreenCancelsItsLoads() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        weak var weakScreen: TracksViewController?
        var screen: TracksViewController? = TracksViewController(
            dependency: .init(api: TracksAPI(network: OffsetPagedSearch(network), baseURL: TracksFixtures.baseURL, limit: 200),
                              term: "midnight", scheduler: scheduler),
            images: ArtworkProvider(network: network))
        weakScreen = screen
        Headless.run { _ = screen?.view }
        Headless.run { scheduler.advanceTo(250) }
        #expect(network.totalRequestCount == 4)        // the search and three artworks
        Headless.run { screen = nil }
        #expect(weakScreen == nil)
        #expect(network.cancelledRequestCount == 3)
        Headless.run { scheduler.start() }             // drops the cancelled answers
    }
}
