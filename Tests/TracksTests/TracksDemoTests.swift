import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing
@testable import Tracks

@MainActor @Suite(.resourceCheck) struct TracksDemoTests {
    @Test func theWalkthroughMatchesTheReviewedText() {
        var lines: [String] = []
        let summary = TracksDemo.run { lines.append($0) }
        expectSameText(lines.joined(separator: "\n"), expectedTracksDemoOutput)
        #expect(summary == TracksDemo.Summary(
            succeeded: true, rows: 100, cellsCreated: 4, imageRequests: 70, distinctURLsShown: 70,
            repeatedRequests: 0, cancelledRequests: 0, failedArtwork: 1, wrongImagesSeen: 0))
    }

    @Test func theWalkthroughIsDeterministic() {
        var first: [String] = [], second: [String] = []
        TracksDemo.run { first.append($0) }
        TracksDemo.run { second.append($0) }
        #expect(first == second)
        #expect(first.count == 21)                 // the title; six steps of a blank line, a sentence, a render; a blank line and the summary
    }

    @Test func anUnreachableServerEndsTheWalkthroughEarly() {
        var lines: [String] = []
        let summary = TracksDemo.run(api: URL(string: "http://127.0.0.1:1")!) { lines.append($0) }
        #expect(!summary.succeeded)
        #expect(summary.imageRequests == 0)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("2. The search failed: the error view offers Retry."))
        #expect(text.contains("Label \"Could not reach the server.\""))
        #expect(text.contains("Button [Retry]"))
    }
}

/// Compares two texts and, when they differ, names the first differing line.
func expectSameText(_ actual: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard actual != expected else { return }
    let a = actual.components(separatedBy: "\n"), e = expected.components(separatedBy: "\n")
    let index = (0..<min(a.count, e.count)).first { a[$0] != e[$0] } ?? min(a.count, e.count)
    let got = index < a.count ? a[index] : "<end>", want = index < e.count ? e[index] : "<end>"
    Issue.record("line \(index + 1) differs:\n  got:  \(got)\n  want: \(want)", sourceLocation: sourceLocation)
}

/// The reviewed output of `pizzaiolo tracks` (embedded API, virtual clock).
let expectedTracksDemoOutput = #"""
Tracks: search results with artwork loaded lazily into reusable cells (embedded fixture API on a virtual clock: the search takes 250 ms, each artwork 60–299 ms).

1. Search “midnight”: the request is on its way, so the table shows a skeleton.
== Tracks ==
View
  Label "Searching “midnight”…"
  TableView 0 rows, offset 0
    SkeletonView ░░░░░░ ×3 'Loading'

2. 50 results arrived: the visible rows show their text, with a placeholder until their artwork loads.
== Tracks ==
View
  Label "50 results for “midnight”"
  TableView 50 rows, offset 0
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

3. The artwork arrived out of order (rows 0, 2, 1), each in its own row's cell; row 2 failed (HTTP 404), so its cell shows the error line.
== Tracks ==
View
  Label "50 results for “midnight”"
  TableView 50 rows, offset 0
    TrackCell [0,0]
      ImageView [image 0 60×60]
      Label "Midnight Lanterns — Juniper Vale"
      Label "A slow-burning synth-pop ballad."
    TrackCell [0,1]
      ImageView [image 1 60×60]
      Label "Paper Orchard — The Copperline Quartet"
      Label "A hazy synth-pop instrumental."
    TrackCell [0,2]
      ImageView [image placeholder 60×60]
      Label "Velvet Kites — Ines Marlowe"
      Label "A bright synth-pop duet."
      Label "⚠ artwork unavailable (HTTP 404)"

4. A fling to row 67 (40 frames of 150 points, 16 ms apart): 67 rows passed through 4 cells; no download was cancelled on reuse (a reused cell's download finishes into the cache), no image landed in a wrong cell; nearing the end of the rows loaded asked for the next page: 50 rows became 100.
== Tracks ==
View
  Label "100 results for “midnight”"
  TableView 100 rows, offset 4020
    TrackCell [0,67]
      ImageView [image placeholder 60×60]
      Label "Hollow Tides — Kofi Mensah-Byrne"
      Label "A restless blues duet."
    TrackCell [0,68]
      ImageView [image placeholder 60×60]
      Label "Lunar Rivers — Northbound Owls"
      Label "A tender blues live take."
    TrackCell [0,69]
      ImageView [image placeholder 60×60]
      Label "Saltwater Lanterns — Astrid & Cole"
      Label "A brooding blues single."

5. Where the fling stopped, the artwork arrived (rows 68, 67, 69).
== Tracks ==
View
  Label "100 results for “midnight”"
  TableView 100 rows, offset 4020
    TrackCell [0,67]
      ImageView [image 67 60×60]
      Label "Hollow Tides — Kofi Mensah-Byrne"
      Label "A restless blues duet."
    TrackCell [0,68]
      ImageView [image 68 60×60]
      Label "Lunar Rivers — Northbound Owls"
      Label "A tender blues live take."
    TrackCell [0,69]
      ImageView [image 69 60×60]
      Label "Saltwater Lanterns — Astrid & Cole"
      Label "A brooding blues single."

6. Back to the top: artwork from the memory cache, failures remembered — no request sent.
== Tracks ==
View
  Label "100 results for “midnight”"
  TableView 100 rows, offset 0
    TrackCell [0,0]
      ImageView [image 0 60×60]
      Label "Midnight Lanterns — Juniper Vale"
      Label "A slow-burning synth-pop ballad."
    TrackCell [0,1]
      ImageView [image 1 60×60]
      Label "Paper Orchard — The Copperline Quartet"
      Label "A hazy synth-pop instrumental."
    TrackCell [0,2]
      ImageView [image placeholder 60×60]
      Label "Velvet Kites — Ines Marlowe"
      Label "A bright synth-pop duet."
      Label "⚠ artwork unavailable (HTTP 404)"

Summary: 4 cells created for 100 rows; 70 image requests for 70 distinct artwork URLs shown (0 repeated, 0 cancelled by reuse); 1 artworks failed; 0 images landed in a wrong cell.
"""#
