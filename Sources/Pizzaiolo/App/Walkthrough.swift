import Foundation
import HeadlessUI
import ObjectStore
import Repository
import Streams

/// The guided tour `swift run pizzaiolo` prints: it drives the app the way a user would and
/// shows each screen as text, with one line of explanation per step. Deterministic: the
/// embedded API answers on a virtual clock, so the same run prints the same text.
@MainActor
public enum Walkthrough {
    /// Runs the tour.
    ///
    /// - Parameters:
    ///   - backend: The server side; the embedded API by default (a real server also works,
    ///     but then the last steps, which switch the network off, still run on it).
    ///   - storeConfiguration: Where the app keeps its data; in memory by default.
    ///   - write: Receives the text, a piece at a time.
    /// - Throws: Store errors.
    public static func run(backend: Backend = .embedded(),
                           storeConfiguration: Store.Configuration = .inMemory(identifier: "pizzaiolo-walkthrough", objectTypes: PizzaioloApp.objectTypes),
                           write: (String) -> Void) throws {
        var step = 0
        func show(_ explanation: String, _ app: PizzaioloApp) {
            step += 1
            write("\n── \(step). \(explanation)\n")
            write(app.render() + "\n")
        }

        write("Pizzaiolo, headless: the sample app of ReactiveMVVM, driven step by step.\n")
        write("Each step says what happens, then prints the screen as the user would see it.\n")

        let store = try Store(configuration: storeConfiguration)
        var app: PizzaioloApp? = try PizzaioloApp(store: store, backend: backend)
        guard let first = app else { return }
        show("Launch. Home asks the kitchen for the featured cards; a spinner turns while there are none.", first)

        backend.settle()
        show("The cards arrive and are stored; their photos load lazily into the right cells.", first)

        func tapCard(_ row: Int) {
            Headless.run { _ = (first.screen as? HomeScreen)?.table.tapRow(at: IndexPath(row: row, section: 0)) }
        }
        tapCard(0)
        backend.settle()
        show("Tap the Margherita card: the Selector opens at that pizza, the strip marks the current page.", first)

        Headless.run { _ = (first.screen as? SelectorScreen)?.nextButton.tap() }
        backend.settle()
        show("Swipe to the next page: the thumbnail strip follows.", first)

        let list = (first.screen as? SelectorScreen)?.list
        let reloads = list?.reloadCount
        Headless.run { _ = (first.screen as? SelectorScreen)?.chips.first(where: { $0.title == "Seafood" })?.tap() }
        backend.settle()
        let batch = list?.lastBatchUpdate
        let animated = "\(batch?.deletedRows.count ?? 0) rows deleted, \(list?.reloadCount == reloads ? "no reload" : "reloaded")"
        show("Tap the Seafood chip: the pizzas with ANY category in {3}; the list animates (\(animated)).", first)

        Headless.run { _ = (first.screen as? SelectorScreen)?.chips.first(where: { $0.title == "Seafood" })?.tap() }
        Headless.run { _ = (first.screen as? SelectorScreen)?.addButton.tap() }
        backend.settle()
        show("Deselect it (the whole menu is back) and add the pizza: the cart badge appears.", first)

        first.home()
        tapCard(1)
        Headless.run {
            let maker = first.screen as? MakerScreen
            _ = maker?.toppingButtons["mushrooms"]?.tap()
            _ = maker?.toppingButtons["mozzarella"]?.tap()
        }
        show("The \"Build your own\" card opens the Maker: $2.99 plus each topping; Add appears once one is chosen.", first)

        Headless.run { _ = (first.screen as? MakerScreen)?.addButton.tap() }
        first.openCart()
        show("Add it and open the cart: name, ×N, the line total, and the totals line.", first)

        Headless.run {
            let cart = first.screen as? CartScreen
            _ = (cart?.table.cellForRow(at: IndexPath(row: 1, section: 0)) as? CartCell)?.plusButton.tap()
        }
        show("Tap + on the custom pizza: one more; − is enabled again.", first)

        Headless.run { _ = (first.screen as? CartScreen)?.table.swipeToDelete(rowAt: IndexPath(row: 0, section: 0)) }
        show("Swipe the first line away: the store deletes it and the table animates the change.", first)

        Headless.run { _ = (first.screen as? CartScreen)?.payButton.tap() }
        show("Pay: the total, and three ways to pay merged into one stream of taps.", first)

        Headless.run { _ = (first.screen as? PaymentScreen)?.cardButton.tap() }
        show("Pay by card: the order is stored in the order queue, then sent.", first)

        backend.settle()
        show("The kitchen confirms: \"Order Placed\", and the cart is emptied.", first)

        // Relaunch with no network: the store still holds the menu from the first visit.
        backend.isOffline = true
        app = nil
        let second = try PizzaioloApp(store: store, backend: backend)
        backend.settle()
        show("Relaunch with the network off: the stored menu shows at once, with a stale-data banner.", second)

        backend.isOffline = false
        second.reload()
        backend.settle()
        show("Back online, reload: fresh data, no banner.", second)

        // A first launch with the network off: nothing is stored yet, so nothing can be shown.
        backend.isOffline = true
        let newDevice = try Store(configuration: .inMemory(identifier: "pizzaiolo-walkthrough-\(UUID().uuidString)", objectTypes: PizzaioloApp.objectTypes))
        let third = try PizzaioloApp(store: newDevice, backend: backend)
        backend.settle()
        show("First launch on a new device, with the network off: nothing is stored yet, so Home shows the network-error view with Retry.", third)

        backend.isOffline = false
        Headless.run { _ = ((third.screen as? HomeScreen)?.table.backgroundView as? NetworkErrorView)?.retryButton.tap() }
        backend.settle()
        show("Back online, tap Retry: the menu fills the screen.", third)

        write("\nDone: \(backend.requestCount) requests, \(second.orders.orders.count) order placed. Try `swift run pizzaiolo --interactive`.\n")
    }
}
