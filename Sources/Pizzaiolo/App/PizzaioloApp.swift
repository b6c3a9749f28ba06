import Foundation
import HeadlessUI
import ObjectStore
import MVVM
import Repository
import Streams

/// The Pizzaiolo app: its store, its repositories, and a navigation stack of headless screens.
///
///     let backend = Backend.embedded()
///     let app = try PizzaioloApp(store: Store(configuration: .inMemory(identifier: "pizzaiolo")), backend: backend)
///     backend.settle()                 // the network answers, the screens update
///     print(app.render())
///
/// A relaunch is a new `PizzaioloApp` on a store opened with the same configuration: the cart,
/// the menu and unconfirmed orders are still there (orders are sent again at launch).
public final class PizzaioloApp {
    /// The model types the app stores.
    public static var objectTypes: [any StoreObject.Type] { [Category.self, Pizza.self, Featured.self, CartItem.self, PlacedOrder.self] }
    /// What an image view shows until its photo arrives.
    public static let placeholder = Image(width: 16, height: 16, color: .init(r: 200, g: 200, b: 200), name: "placeholder")

    /// The local database.
    public let store: Store
    /// The server side.
    public let backend: Backend
    /// Pizzas and featured cards.
    public let menu: MenuRepository
    /// The stored cart.
    public let cart: CartRepository
    /// The persistent order queue.
    public let orders: OrderQueue
    /// Photos, one request per URL.
    public let images: ImageLoader<Image>
    /// The screens; Home at the bottom.
    public private(set) var navigation: NavigationController!

    /// Launches the app: opens Home and resumes unconfirmed orders.
    ///
    /// - Parameters:
    ///   - store: The local database (in memory or a file).
    ///   - backend: The server side.
    /// - Throws: ``StoreError/unsupportedModel(type:reason:)`` if a model cannot be stored.
    public init(store: Store, backend: Backend) throws {
        for type in Self.objectTypes { _ = try type.schemaCheck(in: store) }
        self.store = store
        self.backend = backend
        menu = MenuRepository(store: store, backend: backend)
        cart = CartRepository(store: store)
        orders = OrderQueue(store: store, backend: backend)
        images = ImageLoader.png(network: backend.network)
        Headless.run {
            navigation = NavigationController(rootViewController: HomeScreen(app: self))
            menu.refresh()
            orders.resume()
        }
    }

    /// The screen shown.
    public var screen: ViewController? { navigation.topViewController }

    /// The whole stack as text.
    public func render() -> String { Headless.run { navigation.render() } }

    /// Opens what a Home card stands for: a card with a price offers a pizza, and opens the
    /// Selector at the pizza of that name (once the menu has it); a card without one ("Build
    /// your own") opens the Maker.
    ///
    /// - Parameter card: The tapped card.
    public func open(_ card: FeaturedCard) {
        if let pizza = menu.pizza(named: card.title) {
            openSelector(at: pizza.id)
        } else if card.price != nil {
            push(SelectorScreen(app: self, startAt: .named(card.title)))
        } else {
            openMaker()
        }
    }

    /// Pushes the Selector, at `pizzaID` when given.
    public func openSelector(at pizzaID: Int? = nil) { push(SelectorScreen(app: self, startAt: pizzaID.map { .id($0) })) }
    /// Pushes the Maker.
    public func openMaker() { push(MakerScreen(app: self)) }
    /// Pushes the Cart (unless it is shown).
    public func openCart() { if !(screen is CartScreen) { push(CartScreen(app: self)) } }
    /// Pushes Payment.
    public func openPayment() { push(PaymentScreen(app: self)) }
    /// Goes back one screen.
    public func back() { Headless.run { _ = navigation.popViewController() } }
    /// Goes back to Home.
    public func home() { Headless.run { _ = navigation.popToRootViewController() } }

    private func push(_ screen: ViewController) {
        Headless.run { navigation.pushViewController(screen) }
    }
}

extension PizzaioloApp: ReactiveCompatible {}

extension Reactive where Base: PizzaioloApp {
    /// Opens the Cart for each tap bound to it.
    public var openCart: Binder<Void> { Binder(base) { app, _ in app.openCart() } }
    /// Opens Payment for each tap bound to it.
    public var openPayment: Binder<Void> { Binder(base) { app, _ in app.openPayment() } }
    /// Opens what each card bound to it stands for (``PizzaioloApp/open(_:)``).
    public var open: Binder<FeaturedCard> { Binder(base) { app, card in app.open(card) } }
}

extension StoreObject {
    /// Registers the type with `store`, checking its schema.
    static func schemaCheck(in store: Store) throws -> ObjectSchema { try store.register(Self.self) }
}
