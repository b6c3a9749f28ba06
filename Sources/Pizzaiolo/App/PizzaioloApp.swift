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
///
/// The app is where the parts meet: it makes each screen's view model from its repositories
/// (a screen is given its view model, or the function that makes it from the screen's taps,
/// and only binds), and it holds the one ``reload()`` input every list reloads on.
@MainActor
public final class PizzaioloApp {
    /// The model types the app stores.
    nonisolated public static var objectTypes: [any StoreObject.Type] { [Category.self, Pizza.self, Featured.self, CartItem.self, PlacedOrder.self] }
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
    /// How many pizzas are in the cart: the one count every screen's badge binds.
    public let cartCount: Driver<Int>
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
        cartCount = cart.count
        orders = OrderQueue(store: store, backend: backend)
        images = ImageLoader.png(network: backend.network)
        Headless.run {
            navigation = NavigationController(rootViewController: HomeScreen(app: self, viewModel: HomeViewModel(featured: menu.featured.states), retry: menu.reload))
            menu.keepPizzasLoaded()
            orders.resume()
        }
    }

    /// Loads the menu again (the featured cards and the pizzas): what Retry does.
    public func reload() { Headless.run { menu.reload.onNext(()) } }

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
            openSelector(startAt: .named(card.title))
        } else {
            openMaker()
        }
    }

    // Navigation: a screen of a kind already on the stack is popped back to rather than pushed
    // again, as a user going back to the cart expects, so the stack never holds two of a kind
    // (a Selector asked to open at a given pizza replaces the one on the stack).

    /// Shows the Selector, at `pizzaID` when given.
    public func openSelector(at pizzaID: Int? = nil) { openSelector(startAt: pizzaID.map { .id($0) }) }
    /// Shows the Maker.
    public func openMaker() {
        let cart = self.cart
        show(MakerScreen.self) { MakerScreen(app: self, viewModel: { MakerViewModel(input: $0, cart: cart) }) }
    }
    /// Shows the Cart.
    public func openCart() { show(CartScreen.self) { CartScreen(app: self, viewModel: CartViewModel(cart: cart)) } }
    /// Shows Payment.
    public func openPayment() {
        let (cart, orders) = (self.cart, self.orders)
        show(PaymentScreen.self) { PaymentScreen(app: self, viewModel: { PaymentViewModel(input: $0, cart: cart, orders: orders) }) }
    }

    private func openSelector(startAt start: SelectorViewModel.Start?) {
        let (pizzas, query, cart) = (menu.pizzas, menu.pizzaQuery, self.cart)
        show(SelectorScreen.self, replacing: start != nil) {
            SelectorScreen(app: self, categories: menu.categories, viewModel: { input in
                SelectorViewModel(input: input, menu: pizzas.all(), pizzas: query, cart: cart, startAt: start)
            })
        }
    }

    /// Pops back to the screen of type `Screen` on the stack, or pushes the one `make` makes;
    /// with `replacing`, the one on the stack is popped too and the new one pushed.
    private func show<Screen: ViewController>(_ type: Screen.Type, replacing: Bool = false, _ make: () -> Screen) {
        Headless.run {
            if let index = navigation.viewControllers.firstIndex(where: { $0 is Screen }) {
                let kept = max(replacing ? index : index + 1, 1)
                while navigation.viewControllers.count > kept { navigation.popViewController() }
                if !replacing { return }
            }
            navigation.pushViewController(make())
        }
    }

    /// Goes back one screen.
    public func back() { Headless.run { _ = navigation.popViewController() } }
    /// Goes back to Home.
    public func home() { Headless.run { _ = navigation.popToRootViewController() } }
}

extension PizzaioloApp: ReactiveCompatible {}

@MainActor
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
