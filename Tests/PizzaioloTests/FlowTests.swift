import Foundation
import HeadlessUI
import ObjectStore
import Repository
import Streams
import Testing
import TestSupport
@testable import Pizzaiolo
import Locking

/// Every flow of the app, through its screens (tapping their buttons) and their rendered text.
@MainActor @Suite(.resourceCheck) struct FlowTests {
    @Test func homeShowsASpinnerThenTheCardsWithTheirPrices() throws {
        let backend = Backend.embedded()
        let app = try launch(memoryStore(), backend: backend, settle: false)
        #expect(app.home?.spinner.isAnimating == true)
        #expect(app.home?.table.numberOfRows(inSection: 0) == 0)
        backend.settle()
        let home = try #require(app.home)
        #expect(!home.spinner.isAnimating)
        #expect(latest(home.viewModel.cards)?.map(\.title) == ["Margherita", "Build your own", "Frutti di Mare"])
        let margherita = try #require(home.table.cellForRow(at: IndexPath(row: 0, section: 0)) as? FeaturedCell)
        #expect(margherita.oldPriceLabel.text == "~~$9.99~~")
        #expect(margherita.priceLabel.text == "$8.99")
        let custom = try #require(home.table.cellForRow(at: IndexPath(row: 1, section: 0)) as? FeaturedCell)
        #expect(custom.priceLabel.isHidden)
        #expect(custom.oldPriceLabel.isHidden)
        let seafood = try #require(home.table.cellForRow(at: IndexPath(row: 2, section: 0)) as? FeaturedCell)
        #expect(seafood.oldPriceLabel.isHidden)
        #expect(seafood.priceLabel.text == "$13.99")
        #expect(margherita.photo.image?.name == "margherita")
        #expect(app.render().contains("Button [Cart") == false)      // no badge with an empty cart
    }

    @Test func cardsOpenTheSelectorAtTheirPizzaOrTheMaker() throws {
        let backend = Backend.embedded()
        let app = try launch(memoryStore(), backend: backend)
        let cards = try #require(app.home.flatMap { latest($0.viewModel.cards) })
        Headless.run { _ = app.home?.table.tapRow(at: IndexPath(row: 2, section: 0)) }
        backend.settle()
        #expect(app.selector?.nameLabel.text == "Frutti di Mare")
        #expect(app.selector?.thumbnails.text?.contains("[Frutti di Mare]") == true)
        app.home()
        Headless.run { app.open(cards[1]) }
        #expect(app.maker != nil)
    }

    @Test func pagesPricesAndTheThumbnailStripStayInSync() throws {
        let backend = Backend.embedded()
        let (app, selector) = try launchSelector(backend)
        #expect(selector.nameLabel.text == "Margherita")
        #expect(selector.priceLabel.text == "$8.99")
        #expect(selector.previousButton.isEnabled == false)
        app.tap(selector.nextButton)
        app.tap(selector.nextButton)
        #expect(selector.nameLabel.text == "Diavola")
        #expect(selector.priceLabel.text == "$10.99")
        #expect(selector.thumbnails.text?.hasPrefix("Margherita · Marinara · [Diavola] ·") == true)
        #expect(selector.photo.image?.name == "diavola")
        Headless.run { selector.select(page: 8) }
        backend.settle()
        #expect(selector.nextButton.isEnabled == false)
        #expect(selector.nameLabel.text == "Hawaiian")
    }

    @Test func categoryChipsFilterWithAnyCategoriesIdInAndAnEmptySelectionRestoresAll() throws {
        let backend = Backend.embedded()
        let (app, selector) = try launchSelector(backend)
        let names = { latest(selector.viewModel.pages)?.map(\.name) ?? [] }
        #expect(names().count == 9)
        let chip = { (name: String) in selector.chips.first { $0.title == name } }
        app.tap(chip("White"))
        #expect(names() == ["Quattro Formaggi", "Bianca al Tartufo"])
        #expect(chip("White")?.isSelected == true)
        app.tap(chip("Seafood"))
        #expect(names() == ["Quattro Formaggi", "Frutti di Mare", "Bianca al Tartufo"])
        app.tap(chip("White"))
        app.tap(chip("Seafood"))
        #expect(names().count == 9)
        // Margherita is in two categories and appears once under both.
        app.tap(chip("Classic"))
        app.tap(chip("Vegetarian"))
        #expect(names().filter { $0 == "Margherita" }.count == 1)
    }

    @Test func theSelectorShowsASkeletonUntilTheMenuArrives() throws {
        let backend = Backend.embedded()
        let app = try launch(memoryStore(), backend: backend, settle: false)
        Headless.run { app.openSelector() }
        #expect(app.selector?.skeleton.isHidden == false)
        #expect(app.render().contains("SkeletonView"))
        backend.settle()
        #expect(app.selector?.skeleton.isHidden == true)
        #expect(app.selector?.nameLabel.text == "Margherita")
    }

    @Test func aTapThatCannotWriteShowsWhyAndTheNextOneClearsIt() throws {
        let backend = Backend.embedded()
        let (app, selector) = try launchSelector(backend)
        #expect(selector.errorLabel.isHidden)
        // Inside another write transaction the store refuses the cart's write.
        try app.store.write { _ in Headless.run { _ = selector.addButton.tap() } }
        #expect(!selector.errorLabel.isHidden)
        #expect(selector.errorLabel.text == "Could not add the pizza: write() called inside a write transaction")
        #expect(app.render().contains("Could not add the pizza"))
        #expect(app.cart.items.isEmpty)
        app.tap(selector.addButton)
        #expect(selector.errorLabel.isHidden)
        #expect(app.cart.items.count == 1)
    }

    @Test func answersAreDecodedAndStoredOffTheMainThread() throws {
        let backend = Backend.embedded()
        let store = try Store(configuration: memoryStore())
        let uiThread = pthread_self()
        let writers = Locked<[pthread_t]>([])
        let watching = store.objects(Featured.self).observe(on: ImmediateScheduler.instance)
            .subscribe(onNext: { change in
                if case .update = change { writers.withLock { $0.append(pthread_self()) } }
            })
        defer { watching.dispose() }
        let app = try PizzaioloApp(store: store, backend: backend)
        backend.settle()
        let threads = writers.withLock { $0 }
        #expect(threads.count == 1)
        #expect(threads.allSatisfy { pthread_equal($0, uiThread) == 0 })
        #expect(app.home?.table.numberOfRows(inSection: 0) == 3)      // and the result reached the screen
    }

    @Test func theMakerPricesToppingsAndAddsOneIdentityPerSetOfToppings() throws {
        let backend = Backend.embedded()
        let app = try launch(memoryStore(), backend: backend)
        Headless.run { app.openMaker() }
        let maker = try #require(app.maker)
        #expect(maker.addButton.isHidden)
        #expect(maker.priceLabel.text == "Price: $2.99")
        app.tap(maker.toppingButtons["olives"])
        app.tap(maker.toppingButtons["ham"])
        #expect(maker.priceLabel.text == "Price: $4.99")
        #expect(!maker.addButton.isHidden)
        app.tap(maker.addButton)
        // The same toppings chosen in the other order are the same pizza: one line, ×2.
        app.tap(maker.toppingButtons["olives"])
        app.tap(maker.toppingButtons["ham"])
        #expect(maker.addButton.isHidden)
        app.tap(maker.toppingButtons["ham"])
        app.tap(maker.toppingButtons["olives"])
        app.tap(maker.addButton)
        let lines = app.cart.items
        #expect(lines.count == 1)
        #expect(lines.first?.name == "Custom Pizza")
        #expect(lines.first?.summary == "Ham, Olives")
        #expect(lines.first?.quantity == 2)
        #expect(lines.first?.unitPrice == 499)
        #expect(MakerViewModel.identity(["olives", "ham"]) == MakerViewModel.identity(["ham", "olives"]))
    }

    @Test func theCartEditsLinesDeletesWithAnimationAndEmpties() throws {
        let backend = Backend.embedded()
        let app = try launch(memoryStore(), backend: backend)
        try app.cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
        try app.cart.add(id: "pizza-2", name: "Marinara", summary: "", unitPrice: 799)
        Headless.run { app.openCart() }
        backend.settle()
        let cart = try #require(app.cartScreen)
        #expect(cart.totalsLabel.text == "2 pizzas: $16.98")
        #expect(!cart.cartBadge.isHidden)
        #expect(cart.cartBadge.title == "Cart (2)")
        let first = try #require(cart.table.cellForRow(at: IndexPath(row: 0, section: 0)) as? CartCell)
        #expect(first.minusButton.isEnabled == false)
        app.tap(first.plusButton)
        #expect(first.quantityLabel.text == "×2")
        #expect(first.totalLabel.text == "$17.98")
        #expect(first.minusButton.isEnabled)
        #expect(cart.totalsLabel.text == "3 pizzas: $25.97")
        app.tap(first.minusButton)
        #expect(first.quantityLabel.text == "×1")
        Headless.run { _ = cart.table.swipeToDelete(rowAt: IndexPath(row: 0, section: 0)) }
        backend.settle()
        #expect(cart.table.numberOfRows(inSection: 0) == 1)
        #expect((cart.table.cellForRow(at: IndexPath(row: 0, section: 0)) as? CartCell)?.nameLabel.text == "Marinara")
        #expect(cart.totalsLabel.text == "1 pizza: $7.99")
        Headless.run { _ = cart.table.swipeToDelete(rowAt: IndexPath(row: 0, section: 0)) }
        backend.settle()
        #expect(cart.payButton.isHidden)
        #expect(!cart.emptyLabel.isHidden)
        #expect(cart.cartBadge.isHidden)
        #expect(app.render().contains("Label \"Your cart is empty\""))
    }

    @Test func theBadgeIsOnEveryScreenOnlyWhileTheCartHoldsSomething() throws {
        let backend = Backend.embedded()
        let app = try launch(memoryStore(), backend: backend)
        #expect(app.home?.cartBadge.isHidden == true)
        Headless.run { app.openSelector() }
        backend.settle()
        app.tap(app.selector?.addButton)
        #expect(app.selector?.cartBadge.title == "Cart (1)")
        #expect(app.home?.cartBadge.isHidden == false)
        Headless.run { app.openMaker() }
        #expect(app.maker?.cartBadge.isHidden == false)
        app.tap(app.maker?.cartBadge)
        #expect(app.cartScreen != nil)
    }

    @Test func payingPlacesTheOrderOnlyOnceTheKitchenConfirms() throws {
        let backend = Backend.embedded()
        let app = try launch(memoryStore(), backend: backend)
        try app.cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
        Headless.run { app.openPayment() }
        backend.settle()
        let payment = try #require(app.payment)
        #expect(payment.totalLabel.text == "Total: $8.99")
        Headless.run { _ = payment.walletButton.tap() }
        #expect(payment.statusLabel.text == "Sending your order…")
        #expect(app.cart.items.count == 1)                          // not cleared before the answer
        #expect(app.orders.orders.map(\.state) == ["submitted"])
        backend.settle()
        #expect(payment.statusLabel.text == "Order Placed")
        #expect(app.cart.items.isEmpty)
        #expect(app.orders.orders.map(\.state) == ["confirmed"])
        #expect(app.orders.orders.first?.method == "wallet")
        #expect(backend.fixture?.requestCount(for: "/orders") == 1)
    }

    @Test func aRefusedPaymentKeepsTheCartAndSaysWhy() throws {
        let backend = Backend.embedded()
        backend.fixture?.setRoute(.status(402, body: "card declined"), for: "/orders")
        let app = try launch(memoryStore(), backend: backend)
        try app.cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
        Headless.run { app.openPayment() }
        app.tap(app.payment?.cardButton)
        #expect(app.payment?.statusLabel.text == "Payment failed: the kitchen refused the order: card declined")
        #expect(app.cart.items.count == 1)
        #expect(app.orders.orders.map(\.state) == ["failed"])
        #expect(app.payment?.cardButton.isEnabled == true)

        backend.isOffline = true
        app.tap(app.payment?.cashButton)
        #expect(app.payment?.statusLabel.text == "Payment failed: no connection to the kitchen")
        #expect(app.cart.items.count == 1)
    }

    @Test func theFirstLaunchOfflineShowsTheErrorViewAndRetryFillsTheScreen() throws {
        let backend = Backend.embedded()
        let (app, home, errorView) = try launchOffline(backend)
        #expect(errorView.messageLabel.text == "No connection to the kitchen")
        #expect(!home.spinner.isAnimating)
        backend.isOffline = false
        Headless.run { _ = errorView.retryButton.tap() }
        backend.settle()
        #expect(home.table.backgroundView == nil)
        #expect(home.table.numberOfRows(inSection: 0) == 3)
        #expect(home.banner.isHidden)
        #expect(app.screen === home)
    }

    @Test func afterOneGoodLaunchAnOfflineRelaunchShowsTheStoredMenuFromTheFile() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let backend = Backend.embedded()
        do {
            let app = try launch(folder.store, backend: backend)
            #expect(app.home?.table.numberOfRows(inSection: 0) == 3)
            try app.cart.add(id: "pizza-3", name: "Diavola", summary: "", unitPrice: 1099)
        }
        backend.isOffline = true
        let relaunched = try launch(folder.store, backend: backend)
        let home = try #require(relaunched.home)
        #expect(home.table.backgroundView == nil)                   // no error view
        #expect(home.table.numberOfRows(inSection: 0) == 3)
        #expect(home.banner.text == "Offline: showing the menu from your last visit")
        #expect(relaunched.cart.items.map(\.name) == ["Diavola"])   // the stored cart survived
        #expect(home.cartBadge.title == "Cart (1)")
        Headless.run { relaunched.openSelector() }
        backend.settle()
        #expect(relaunched.selector.flatMap { latest($0.viewModel.pages) }?.count == 9)
    }

    @Test func anUnconfirmedOrderSurvivesARestartAndIsSentAgainAtLaunch() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let slowKitchen = Backend.embedded()
        slowKitchen.fixture?.setRoute(.data(Data(PizzaioloAPI.orderConfirmationJSON.utf8), delay: .seconds(3_600)), for: "/orders")
        do {
            let app = try launch(folder.store, backend: slowKitchen)
            try app.cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
            Headless.run { app.openPayment() }
            Headless.run { _ = app.payment?.cardButton.tap() }
            #expect(app.orders.orders.map(\.state) == ["submitted"])
            // The app is killed before the kitchen answers.
        }
        let backend = Backend.embedded()
        let relaunched = try launch(folder.store, backend: backend)
        #expect(backend.fixture?.requestCount(for: "/orders") == 1)
        #expect(relaunched.orders.orders.map(\.state) == ["confirmed"])
        #expect(relaunched.cart.items.isEmpty)
        slowKitchen.settle()          // the first launch's answer finally arrives, to nobody
    }

    @Test func unknownPizzasAre404AndTheFixturesServeEveryEndpoint() throws {
        let routes = PizzaioloAPI.routes(latency: .milliseconds(1))
        for path in ["/categories", "/pizza", "/featured", "/pizza/1", "/pizza/9", "/photos/pizza/margherita.png", "/photos/featured/build-your-own.png"] {
            #expect(routes[path] != nil, "\(path)")
        }
        #expect(routes["/pizza/10"] == nil)                        // FixtureNetwork answers 404
        let categories = try JSONSerialization.jsonObject(with: Data(PizzaioloAPI.categoriesJSON.utf8)) as? [[String: Any]]
        #expect(categories?.count == 5)
        let pizzas = try JSONDecoder().decode([PizzaResponse].self, from: Data(PizzaioloAPI.pizzaListJSON.utf8))
        #expect(pizzas.count == 9)
        #expect(pizzas.contains { $0.category.count >= 2 })
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        try PizzaioloAPI.export(to: folder.url)
        let list = try Data(contentsOf: folder.url.appendingPathComponent("pizza/index.html"))
        #expect(try JSONDecoder().decode([PizzaResponse].self, from: list).count == 9)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("photos/pizza/hawaiian.png").path))
    }
}
