import Testing
import TestSupport
@testable import Tracks

@Suite(.resourceCheck) struct TracksSkeletonTests {
    @Test func appHasAName() { #expect(Tracks.appName == "Tracks") }
}
