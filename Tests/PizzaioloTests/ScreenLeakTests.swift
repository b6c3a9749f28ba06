import Foundation
import HeadlessUI
import ObjectStore
import Streams
import Testing
import TestSupport
@testable import Pizzaiolo

/// Issue 9: building and dismissing every screen 100 times leaves no subscription, cell or
/// image behind beyond the caches' limits.
@MainActor @Suite(.resourceCheck) struct ScreenLeakTests {
    @Test func everyScreenBuiltAndDismissedAHundredTimesLeavesNothingBehind() throws {
        let backend = Backend.embedded()
        let app = try launch(memoryStore(), backend: backend)
        try app.cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
        func cycle() {
            Headless.run { app.openSelector(at: 4) }
            backend.settle()
            Headless.run { _ = app.selector?.chips.first?.tap() }
            backend.settle()
            Headless.run { _ = app.selector?.nextButton.tap() }
            backend.settle()
            Headless.run { app.openMaker() }
            Headless.run { _ = app.maker?.toppingButtons["ham"]?.tap() }
            Headless.run { app.openCart() }
            Headless.run { app.openPayment() }
            backend.settle()
            app.home()
        }
        cycle()                                   // caches and the store's tables warm up
        let baseline = Resources.total
        let cached = app.images.memoryCount
        for _ in 0..<100 { cycle() }
        #expect(Resources.total == baseline)
        #expect(app.images.memoryCount == cached)
        #expect(app.images.inFlightCount == 0)
        #expect(app.navigation.viewControllers.count == 1)
        let home = try #require(app.home)
        #expect(home.table.visibleCells.count == 3)
        #expect(backend.requestCount < 40)        // photos come from the cache after the first cycle
    }
}
