import Testing
import TestSupport
@testable import Pizzaiolo

@Suite(.resourceCheck) struct PizzaioloSkeletonTests {
    @Test func appHasAName() { #expect(Pizzaiolo.appName == "Pizzaiolo") }
}
