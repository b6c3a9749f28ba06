import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeadlessUI
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

/// The menu: pizzas and featured cards, local first, network merged.
public final class MenuRepository: @unchecked Sendable {
    let store: Store
    let backend: Backend

    /// The pizzas, as pages (categories are fetched first, so the pizzas' links resolve).
    public let pizzas: Manager<PizzaPage>
    /// The Home cards.
    public let featured: Manager<FeaturedCard>

    init(store: Store, backend: Backend) {
        self.store = store
        self.backend = backend
        let base = backend.baseURL
        let network = backend.network
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
        let pizzaQuery = Query<Pizza, PizzaPage>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "id")], viewModel: { PizzaPage($0, baseURL: base) })
        pizzas = Manager(
            local: pizzaQuery.observeAll(on: MainScheduler.instance),
            network: network.fetch(url: backend.url("categories")).asObservable()
                .map { try categories.map($0) }
                .flatMap { _ in network.fetch(url: backend.url("pizza")).asObservable() }
                .map { try pizzaMapper.map($0) })
        let featuredMapper = Mapper<[Featured], Featured, FeaturedCard>(store: store, viewModel: { FeaturedCard($0, baseURL: base) })
        let featuredQuery = Query<Featured, FeaturedCard>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "position")], viewModel: { FeaturedCard($0, baseURL: base) })
        featured = Manager(
            local: featuredQuery.observeAll(on: MainScheduler.instance),
            network: network.fetch(url: backend.url("featured")).asObservable().map { try featuredMapper.map($0) })
    }

    /// The stored categories, by id.
    public var categories: [Category] {
        store.objects(Category.self).sorted(byKeyPath: "id").toArray()
    }

    /// The stored pizzas in any of `categoryIDs` (all of them for an empty set), live.
    ///
    /// - Parameter categoryIDs: The selected chips.
    /// - Returns: Pages, now and after every change.
    public func pizzas(inAnyOf categoryIDs: Set<Int>) -> Observable<[PizzaPage]> {
        let base = backend.baseURL
        var query = Query<Pizza, PizzaPage>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "id")], viewModel: { PizzaPage($0, baseURL: base) })
        if !categoryIDs.isEmpty, let filtered = try? query.filtered("ANY categories.id IN %@", categoryIDs.sorted()) {
            query = filtered
        }
        return query.observeAll(on: MainScheduler.instance)
    }

    /// The stored pizza with `id`.
    public func pizza(id: Int) -> Pizza? { store.object(ofType: Pizza.self, forPrimaryKey: id) }

    /// The stored pizza called `name`.
    public func pizza(named name: String) -> Pizza? {
        store.objects(Pizza.self).filter("name ==[c] %@", name).first
    }
}

/// A cart line as shown.
public struct CartRow: Hashable, Sendable, IdentifiableType {
    /// The line's identity.
    public let id: String
    /// The name.
    public let name: String
    /// How many.
    public let quantity: Int
    /// The line's total in cents.
    public let totalCents: Int
    /// `×2`.
    public var quantityText: String { "×\(quantity)" }
    /// The line's total, e.g. `$17.98`.
    public var total: String { dollars(totalCents).format() }
    /// The identity used by animated table updates.
    public var identity: String { id }

    init(_ item: CartItem) {
        id = item.id
        name = item.name
        quantity = item.quantity
        totalCents = item.unitPrice * item.quantity
    }
}

/// The stored cart.
public final class CartRepository: @unchecked Sendable {
    let store: Store

    init(store: Store) { self.store = store }

    /// The lines in the order they were added, now and after every change.
    public var rows: Observable<[CartRow]> {
        Query<CartItem, CartRow>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "position")], viewModel: CartRow.init)
            .observeAll(on: MainScheduler.instance)
    }

    /// How many pizzas are in the cart, now and after every change.
    public var count: Observable<Int> { rows.map { $0.reduce(0) { $0 + $1.quantity } }.distinctUntilChanged() }

    /// The lines now.
    public var items: [CartItem] { store.objects(CartItem.self).sorted(byKeyPath: "position").toArray() }

    /// Adds one of something: a new line, or one more on its line.
    public func add(id: String, name: String, summary: String, unitPrice: Int) throws {
        try store.write { tx in
            if var item = tx.object(ofType: CartItem.self, forPrimaryKey: id) {
                item.quantity += 1
                try tx.add(item, update: .modified)
            } else {
                let next = (tx.objects(CartItem.self).max(ofProperty: "position") as Int?).map { $0 + 1 } ?? 0
                try tx.add(CartItem(id: id, name: name, summary: summary, unitPrice: unitPrice, quantity: 1, position: next))
            }
        }
    }

    /// One more on line `id`.
    public func increment(_ id: String) throws { try change(id) { $0 + 1 } }

    /// One fewer on line `id`, never below one (delete the line instead).
    public func decrement(_ id: String) throws { try change(id) { max(1, $0 - 1) } }

    /// Removes line `id`.
    public func remove(_ id: String) throws {
        try store.write { tx in
            if let item = tx.object(ofType: CartItem.self, forPrimaryKey: id) { try tx.delete(item) }
        }
    }

    private func change(_ id: String, _ quantity: (Int) -> Int) throws {
        try store.write { tx in
            guard var item = tx.object(ofType: CartItem.self, forPrimaryKey: id) else { return }
            item.quantity = quantity(item.quantity)
            try tx.add(item, update: .modified)
        }
    }
}

/// What the Payment screen says about the latest order.
public enum OrderStatus: Equatable, Sendable {
    /// Nothing placed yet.
    case idle
    /// Sent to the kitchen, waiting for its answer.
    case sending
    /// Confirmed: the cart was cleared.
    case placed(id: String)
    /// Refused or unreachable: the cart is kept.
    case failed(reason: String)
}

/// The persistent order queue: an order is stored before it is sent, so one that was not
/// confirmed survives a restart and is sent again on launch.
public final class OrderQueue: @unchecked Sendable {
    let store: Store
    let backend: Backend
    /// The latest order's status.
    public let status = BehaviorRelay<OrderStatus>(value: .idle)
    private let disposeBag = DisposeBag()

    init(store: Store, backend: Backend) {
        self.store = store
        self.backend = backend
    }

    /// Stores an order for the cart's content and sends it.
    ///
    /// - Parameter method: `card`, `wallet` or `cash`.
    public func place(method: String) throws {
        let items = store.objects(CartItem.self).toArray()
        guard !items.isEmpty else { return }
        let order = try store.write { tx -> PlacedOrder in
            let order = PlacedOrder(
                id: "order-\(tx.objects(PlacedOrder.self).count + 1)",
                total: items.reduce(0) { $0 + $1.unitPrice * $1.quantity },
                pizzas: items.reduce(0) { $0 + $1.quantity },
                method: method, state: PlacedOrder.State.pending.rawValue, reason: nil)
            try tx.add(order)
            return order
        }
        submit(order)
    }

    /// Sends again every order that was stored but not confirmed (at launch).
    public func resume() {
        let unfinished = store.objects(PlacedOrder.self)
            .filter("state IN %@", [PlacedOrder.State.pending.rawValue, PlacedOrder.State.submitted.rawValue])
            .sorted(byKeyPath: "id").toArray()
        unfinished.forEach(submit)
    }

    /// The orders stored, in the order they were placed.
    public var orders: [PlacedOrder] { store.objects(PlacedOrder.self).sorted(byKeyPath: "id").toArray() }

    private func submit(_ order: PlacedOrder) {
        setState(order.id, .submitted, reason: nil)
        status.accept(.sending)
        var request = URLRequest(url: backend.url("orders"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"id": "\#(order.id)", "total": \#(order.total), "method": "\#(order.method)"}"#.utf8)
        backend.network.fetch(request)
            .observe(on: MainScheduler.instance)
            .subscribe(onSuccess: { [weak self] body in
                guard let self else { return }
                if String(decoding: body, as: UTF8.self).contains(#""confirmed""#) {
                    self.confirm(order.id)
                } else {
                    self.fail(order.id, reason: "the kitchen did not confirm the order")
                }
            }, onFailure: { [weak self] error in
                self?.fail(order.id, reason: Self.describe(error))
            })
            .disposed(by: disposeBag)
    }

    private func confirm(_ id: String) {
        do {
            try store.write { tx in
                guard var order = tx.object(ofType: PlacedOrder.self, forPrimaryKey: id) else { return }
                order.state = PlacedOrder.State.confirmed.rawValue
                try tx.add(order, update: .modified)
                try tx.deleteAll(CartItem.self)
            }
            status.accept(.placed(id: id))
        } catch {
            status.accept(.failed(reason: "\(error)"))
        }
    }

    private func fail(_ id: String, reason: String) {
        setState(id, .failed, reason: reason)
        status.accept(.failed(reason: reason))
    }

    private func setState(_ id: String, _ state: PlacedOrder.State, reason: String?) {
        try? store.write { tx in
            guard var order = tx.object(ofType: PlacedOrder.self, forPrimaryKey: id) else { return }
            order.state = state.rawValue
            order.reason = reason
            try tx.add(order, update: .modified)
        }
    }

    static func describe(_ error: Error) -> String {
        switch error as? NetworkError {
        case .unreachable?: return "no connection to the kitchen"
        case .timedOut?: return "the kitchen did not answer in time"
        case .badStatus(let code, let body)?:
            // A short plain-text reason is shown as it is; an error page is summed up by its status.
            let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let readable = !text.isEmpty && text.count <= 80 && !text.hasPrefix("<") && !text.contains("\n")
            return readable ? "the kitchen refused the order: \(text)" : "the kitchen refused the order (\(code))"
        default: return "\(error)"
        }
    }
}
