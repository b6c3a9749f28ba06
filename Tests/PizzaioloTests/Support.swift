import Foundation
import HeadlessUI
import ObjectStore
import Streams
import StreamsTesting
import Testing
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
@MainActor
func launch(_ configuration: Store.Configuration, backend: Backend, settle: Bool = true) throws -> PizzaioloApp {
    let app = try PizzaioloApp(store: Store(configuration: configuration), backend: backend)
    if settle { backend.settle() }
    return app
}

/// Launches the app on a fresh in-memory store, lets the menu arrive, and opens the Selector.
@MainActor
func launchSelector(_ backend: Backend) throws -> (PizzaioloApp, SelectorScreen) {
    let app = try launch(memoryStore(), backend: backend)
    Headless.run { app.openSelector() }
    backend.settle()
    return (app, try #require(app.selector))
}

/// Launches the app on a fresh in-memory store with the network off: Home shows its error view.
@MainActor
func launchOffline(_ backend: Backend) throws -> (PizzaioloApp, HomeScreen, NetworkErrorView) {
    backend.isOffline = true
    let app = try launch(memoryStore(), backend: backend)
    let home = try #require(app.home)
    return (app, home, try #require(home.table.backgroundView as? NetworkErrorView))
}

@MainActor
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
@MainActor
func latest<Element>(_ driver: Driver<Element>) -> Element? {
    Headless.run {
        var value: Element?
        driver.drive(onNext: { value = $0 }).dispose()
        return value
    }
}

/// Records what `driver` delivers, stamped with `scheduler`'s clock, until `bag` is released.
@MainActor
func record<Element>(_ driver: Driver<Element>, on scheduler: TestScheduler, in bag: DisposeBag) -> TestableObserver<Element> {
    let observer = scheduler.createObserver(Element.self)
    Headless.run { driver.drive(observer).disposed(by: bag) }
    return observer
}

extension TestScheduler {
    /// A test scheduler counting milliseconds, with no processing delay.
    static func milliseconds() -> TestScheduler {
        TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
    }

    /// Runs the clock to `time` one tick at a time, each on the main scheduler and followed by
    /// what it queued there: drivers deliver at the tick of their event (a driver's
    /// `observe(on:)` queues while the main scheduler runs the clock).
    @MainActor
    func advance(to time: Int) {
        while clock < time {
            let next = clock + 1
            Headless.run { advanceTo(next) }
        }
    }
}

/// What a view-model test needs: a `TestScheduler` counting milliseconds, a cart in a fresh
/// in-memory store, hot inputs on the scheduler, and recorders for the `Driver`s, which live
/// until the bench is released.
///
///     let bench = try ViewModelBench()
///     let viewModel = MakerViewModel(input: .init(toggle: bench.hot([(100, "ham")]), addToCart: bench.taps(200)), cart: bench.cart)
///     let price = bench.record(viewModel.price)
///     bench.run()
///     #expect(price.events == [.next(0, "Price: $2.99"), .next(100, "Price: $4.49")])
@MainActor
final class ViewModelBench {
    let scheduler = TestScheduler.milliseconds()
    let store: Store
    let cart: CartRepository
    let bag = DisposeBag()

    init() throws {
        store = try Store(configuration: memoryStore())
        cart = CartRepository(store: store)
    }

    /// A hot input that sends each value at its time.
    func hot<Element>(_ events: [(Int, Element)]) -> Observable<Element> {
        scheduler.createHotObservable(events.map { .next($0.0, $0.1) }).asObservable()
    }

    /// A hot input of taps at these times.
    func taps(_ times: Int...) -> Observable<Void> { hot(times.map { ($0, ()) }) }

    /// Records what `driver` delivers, stamped with the scheduler's clock.
    func record<Element>(_ driver: Driver<Element>) -> TestableObserver<Element> {
        PizzaioloTests.record(driver, on: scheduler, in: bag)
    }

    /// Runs the clock to `time` (see ``TestScheduler/advance(to:)``).
    func run(to time: Int = 1000) { scheduler.advance(to: time) }
}
