import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing
@testable import Tracks

@Suite(.resourceCheck) struct TracksDemoTests {
    @Test func printsTheWalkthrough() {
        var lines: [String] = []
        let summary = TracksDemo.run { lines.append($0) }
        let text = lines.joined(separator: "\n")
        try? text.write(toFile: "/tmp/tracks-demo.txt", atomically: true, encoding: .utf8)
        #expect(summary.succeeded)
    }
}
