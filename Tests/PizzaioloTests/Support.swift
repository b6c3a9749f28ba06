import Foundation
import HeadlessUI
import ObjectStore
import Streams
@testable import Pizzaiolo

/// A fresh private in-memory store configuration for one test.
func memoryStore() -> Store.Configuration {
    .inMemory(identifier: "pizzaiolo-test-\(UUID().uuidString)", objectTypes: PizzaioloApp.objectTypes)
}

/// A temporary folder for file stores, removed by `cleanUp()`.
struct TemporaryFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("PizzaioloTests-\(UUID().uuidString)", isDirectory: true)
    var store: Store.Configuration { .file(url: url.appendingPathComponent("pizzaiolo.store"), objectTypes: PizzaioloApp.objectTypes) }
    func cleanUp() { try? FileManager.default.removeItem(at: url) }
    init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
}

/// Launches the app and lets the network settle.
func launch(_ configuration: Store.Configuration, backend: Backend, settle: Bool = true) throws -> PizzaioloApp {
    let app = try PizzaioloApp(store: Store(configuration: configuration), backend: backend)
    if settle { backend.settle() }
    return app
}

extension PizzaioloApp {
    var home: HomeScreen? { navigation.viewControllers.first as? HomeScreen }
    var selector: SelectorScreen? { screen as? SelectorScreen }
    var maker: MakerScreen? { screen as? MakerScreen }
    var cartScreen: CartScreen? { screen as? CartScreen }
    var payment: PaymentScreen? { screen as? PaymentScreen }

    /// Taps a button on the main scheduler.
    func tap(_ button: Button?) {
        Headless.run { _ = button?.tap() }
        backend.settle()
    }
}

/// The value a `Driver` holds now (it replays its latest to a new subscriber).
func latest<Element>(_ driver: Driver<Element>) -> Element? {
    Headless.run {
        var value: Element?
        driver.drive(onNext: { value = $0 }).dispose()
        return value
    }
}
