import Foundation
import HeadlessUI
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing
@testable import Tracks

/// The Tracks table asks for the next page when a cell near its end is displayed.
@MainActor @Suite(.resourceCheck) struct TracksViewControllerPagingTests {
    /// Scrolls to the last row, a frame at a time, letting each page arrive.
    func scrollToTheEnd(_ harness: TracksHarness) {
        while harness.table.contentOffset < harness.table.maximumContentOffset {
            harness.scroll(by: 120)
            harness.advance(TracksFixtures.searchLatencyMilliseconds)
        }
    }

    @Test func nearingTheEndLoadsTheNextPage() {
        let harness = TracksHarness(latency: .immediate, pageSize: 50)
        harness.loadRows()
        #expect(harness.table.numberOfRows(inSection: 0) == 50)
        // Rows 0–40 are far from the end: no page is asked for.
        harness.scroll(to: 40 * 60)
        #expect(harness.searchOffsets == [0])
        // Row 45 is within five rows of the end.
        harness.scroll(to: 43 * 60)
        #expect(harness.searchOffsets == [0, 50])
        #expect(harness.screen.headerLabel.text == "50 results for “midnight”, loading more…")
        harness.advance(1)
        #expect(harness.table.numberOfRows(inSection: 0) == 100)
        #expect(harness.screen.headerLabel.text == "100 results for “midnight”")
        // The rows already shown stay where they were.
        #expect(harness.table.contentOffset == 43 * 60)
        #expect(harness.visibleCells.first?.titleLabel.text == TrackRow(track: TracksFixtures.tracks[43]).title)
    }

    @Test func theEndStopsTheRequests() {
        let harness = TracksHarness(latency: .immediate, pageSize: 50)
        harness.loadRows()
        scrollToTheEnd(harness)
        #expect(harness.table.numberOfRows(inSection: 0) == 200)
        // Four full pages, then an empty one: the end.
        #expect(harness.searchOffsets == [0, 50, 100, 150, 200])
        harness.scroll(to: 0)
        scrollToTheEnd(harness)
        #expect(harness.searchOffsets.count == 5)
    }

    @Test func aFailedPageKeepsTheRowsAndTheNextDisplayRetriesIt() {
        let harness = TracksHarness(latency: .immediate, pageSize: 50)
        harness.loadRows()
        harness.network.setRoute(.status(500, body: "down"), for: "/search")
        harness.scroll(to: 47 * 60)
        harness.advance(1)
        #expect(harness.table.numberOfRows(inSection: 0) == 50)
        #expect(harness.table.backgroundView == nil)
        #expect(harness.screen.headerLabel.text == "50 results for “midnight”; more failed: The search failed (HTTP 500).")
        harness.network.setRoute(.data(TracksFixtures.searchJSON), for: "/search")
        harness.scroll(by: -120)
        harness.scroll(by: 120)            // rows near the end displayed again: page 2 asked for again
        harness.advance(1)
        #expect(harness.table.numberOfRows(inSection: 0) == 100)
        #expect(harness.searchOffsets == [0, 50, 50])
    }
}
