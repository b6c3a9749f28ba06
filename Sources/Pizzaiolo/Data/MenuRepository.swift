import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ObjectStore
import Repository
import Streams

/// A pizza as its page shows it.
public struct PizzaPage: Hashable, Sendable {
    /// The pizza's id.
    public let id: Int
    /// The name.
    public let name: String
    /// One line about it.
    public let summary: String
    /// The price, e.g. `$8.99`.
    public let price: String
    /// The price in cents.
    public let cents: Int
    /// Where its photo is.
    public let photoURL: URL
    /// Its categories' ids.
    public let categoryIDs: [Int]

    init(_ pizza: Pizza, baseURL: URL) {
        id = pizza.id
        name = pizza.name
        summary = pizza.summary
        cents = pizza.price
        price = dollars(pizza.price).format()
        photoURL = baseURL.appendingPathComponent("photos/pizza/\(pizza.photo)")
        categoryIDs = pizza.categories.map(\.id)
    }
}

/// A Home card as shown.
public struct FeaturedCard: Hashable, Sendable {
    /// The card's id.
    public let id: Int
    /// The headline.
    public let title: String
    /// The line under it.
    public let subtitle: String
    /// The old price, e.g. `$9.99` (shown struck through), when there is one.
    public let oldPrice: String?
    /// The price, when there is one.
    public let price: String?
    /// Where its photo is.
    public let photoURL: URL

    init(_ featured: Featured, baseURL: URL) {
        id = featured.id
        title = featured.title
        subtitle = featured.subtitle
        oldPrice = featured.priceWas.map { dollars($0).format() }
        price = featured.price.map { dollars($0).format() }
        photoURL = baseURL.appendingPathComponent("photos/featured/\(featured.photo)")
    }
}

/// The menu: pizzas and featured cards, local first, network merged. Each is one
/// ``Repository/LocalFirstList``, the one source every screen showing it reads, and both load
/// again on the menu's one ``reload`` input (Retry); answers are decoded and stored on the
/// backend's decoding scheduler, off the main thread.
///
/// The app keeps the pizzas loaded while it runs (``keepPizzasLoaded()`` at launch), so every
/// Selector opens filled from the same shared list, and the menu is fetched once per launch or
/// reload rather than once per screen.
public final class MenuRepository: @unchecked Sendable {
    let store: Store
    let backend: Backend
    private let pizzasConnection = SerialDisposable()
    private let reloads = PublishSubject<Void>()

    /// The pizzas, as pages (categories are fetched first, so the pizzas' links resolve).
    public let pizzas: LocalFirstList<PizzaPage>
    /// The Home cards.
    public let featured: LocalFirstList<FeaturedCard>
    /// The stored pizzas by id, as pages: the query a screen narrows for a live list.
    public let pizzaQuery: ViewModelQuery<Pizza, PizzaPage>
    /// Loads both lists again for each element (the error view's Retry, the CLI's `retry`):
    /// each starts again from `loading`. An observer a Retry button forwards its taps to, with
    /// nothing in between (`table.rx.loadState(retry: menu.reload)`).
    public let reload: AnyObserver<Void>

    init(store: Store, backend: Backend) {
        self.store = store
        self.backend = backend
        reload = reloads.asObserver()
        let reload = reloads.asObservable()
        let base = backend.baseURL
        let categories = Mapper<[Category], Category, Category>(store: store, deletesMissing: false, viewModel: { $0 })
        let pizzaMapper = Mapper<[PizzaResponse], Pizza, PizzaPage>(
            store: store,
            models: { [store] list in
                list.map { response in
                    Pizza(id: response.id, name: response.name, summary: response.summary,
                          categories: response.category.map { store.object(ofType: Category.self, forPrimaryKey: $0) ?? Category(id: $0, name: "Category \($0)") },
                          price: response.price, photo: response.photo)
                }
            },
            viewModel: { PizzaPage($0, baseURL: base) })
        let pizzaQuery = ViewModelQuery<Pizza, PizzaPage>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "id")], viewModel: { PizzaPage($0, baseURL: base) })
        self.pizzaQuery = pizzaQuery
        // The pizzas' categories are stored first, so their links resolve.
        pizzas = LocalFirstList(
            local: pizzaQuery.observeAll(on: MainScheduler.instance),
            network: backend.fetch("categories", mappedBy: categories)
                .flatMap { _ in backend.fetch("pizza", mappedBy: pizzaMapper) },
            reload: reload)
        let featuredMapper = Mapper<[Featured], Featured, FeaturedCard>(store: store, viewModel: { FeaturedCard($0, baseURL: base) })
        let featuredQuery = ViewModelQuery<Featured, FeaturedCard>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "position")], viewModel: { FeaturedCard($0, baseURL: base) })
        featured = LocalFirstList(
            local: featuredQuery.observeAll(on: MainScheduler.instance),
            network: backend.fetch("featured", mappedBy: featuredMapper),
            reload: reload)
    }

    deinit { pizzasConnection.dispose() }

    /// Keeps the pizzas loaded until the menu is gone (at launch): the network is asked now and
    /// on each reload, and every Selector reads the same shared states.
    public func keepPizzasLoaded() {
        pizzasConnection.disposable = pizzas.states.subscribe()
    }

    /// The stored categories, by id.
    public var categories: [Category] {
        store.objects(Category.self).sorted(byKeyPath: "id").toArray()
    }

    /// The stored pizza with `id`.
    public func pizza(id: Int) -> Pizza? { store.object(ofType: Pizza.self, forPrimaryKey: id) }

    /// The stored pizza called `name`.
    public func pizza(named name: String) -> Pizza? {
        store.objects(Pizza.self).filter("name ==[c] %@", name).first
    }
}
