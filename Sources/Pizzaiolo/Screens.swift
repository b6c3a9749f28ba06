import Foundation
import HeadlessUI
import ObjectStore
import Repository
import Streams

/// A Pizzaiolo screen: a navigation bar with the cart badge (shown only when the cart holds
/// something), then the screen's content.
open class PizzaioloScreen: ViewController {
    /// The app the screen belongs to.
    public private(set) weak var app: PizzaioloApp?
    /// The cart badge of the navigation bar: `Cart (2)`; hidden while the cart is empty.
    public let cartBadge = Button(title: "Cart")

    /// Creates a screen of `app`.
    public init(app: PizzaioloApp, title: String) {
        self.app = app
        super.init()
        self.title = title
    }

    open override func viewDidLoad() {
        cartBadge.accessibilityIdentifier = "cart-badge"
        view.addSubview(cartBadge)
        guard let app else { return }
        app.cart.count
            .subscribe(onNext: { [cartBadge] count in
                cartBadge.title = "Cart (\(count))"
                cartBadge.isHidden = count == 0
            })
            .disposed(by: disposeBag)
        cartBadge.onTap = { [weak app] in app?.openCart() }
    }
}

// MARK: - Home

/// The Home screen's state: the featured cards, local first then fresh, the menu loaded
/// alongside, and whether what is shown is stale.
public final class HomeViewModel {
    /// The cards shown.
    public let cards = BehaviorRelay<[FeaturedCard]>(value: [])
    /// Loading (spinner), loaded, or failed with nothing to show (error view with Retry).
    public let state = BehaviorRelay<ListLoadState>(value: .loading)
    /// A banner when the network failed but stored data is shown.
    public let banner = BehaviorRelay<String?>(value: nil)
    private let menu: MenuRepository
    private var loads = DisposeBag()
    private let disposeBag = DisposeBag()

    init(menu: MenuRepository) {
        self.menu = menu
        menu.featured.status
            .map { status -> String? in
                if case .stale = status { return "Offline: showing the menu from your last visit" }
                return nil
            }
            .subscribe(onNext: { [banner] in banner.accept($0) })
            .disposed(by: disposeBag)
        load()
    }

    /// Loads (or reloads) the cards and the menu.
    public func load() {
        loads = DisposeBag()
        if cards.value.isEmpty { state.accept(.loading) }
        menu.featured.all()
            .subscribe(onNext: { [cards, state] loaded in
                cards.accept(loaded)
                state.accept(.loaded)
            }, onError: { [cards, state] error in
                if cards.value.isEmpty { state.accept(.failed(message: "No connection to the kitchen")) }
            })
            .disposed(by: loads)
        // The menu is fetched with the cards, so the Selector opens filled.
        menu.pizzas.all().subscribe(onError: { _ in }).disposed(by: loads)
    }
}

/// A featured card's cell: title, subtitle, old price struck through, price, photo.
public final class FeaturedCell: TableViewCell {
    /// The headline.
    public let titleLabel = Label()
    /// The line under it.
    public let subtitleLabel = Label()
    /// The old price, struck through (`~~$9.99~~`); hidden when there is none.
    public let oldPriceLabel = Label()
    /// The price; hidden when there is none.
    public let priceLabel = Label()
    /// The photo.
    public let photo = ImageView()

    /// Creates a cell.
    public required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
        for view in [titleLabel, subtitleLabel, oldPriceLabel, priceLabel, photo] as [View] { contentView.addSubview(view) }
    }

    func configure(_ card: FeaturedCard, images: ImageProviding) {
        titleLabel.text = card.title
        subtitleLabel.text = card.subtitle
        oldPriceLabel.text = card.oldPrice.map { "~~\($0)~~" }
        oldPriceLabel.isHidden = card.oldPrice == nil
        priceLabel.text = card.price
        priceLabel.isHidden = card.price == nil
        photo.load(card.photoURL, from: images, placeholder: PizzaioloApp.placeholder)
    }
}

/// Home: the featured cards, a spinner while there are none, the error view when the first
/// load failed, and a stale-data banner.
public final class HomeScreen: PizzaioloScreen {
    /// The view model.
    public let viewModel: HomeViewModel
    /// Turns while there is nothing to show yet.
    public let spinner = ActivityIndicator()
    /// The stale-data banner.
    public let banner = Label()
    /// The cards.
    public let table = TableView(height: 180, rowHeight: 60)

    init(app: PizzaioloApp) {
        viewModel = HomeViewModel(menu: app.menu)
        super.init(app: app, title: "Pizzaiolo")
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        for view in [banner, spinner, table] as [View] { self.view.addSubview(view) }
        table.register(FeaturedCell.self, forCellReuseIdentifier: "Featured")
        guard let app else { return }
        let images = app.images
        viewModel.cards.asDriver()
            .drive(table.rx.items(cellIdentifier: "Featured", cellType: FeaturedCell.self)) { _, card, cell in
                cell.configure(card, images: images)
            }
            .disposed(by: disposeBag)
        Observable.combineLatest(viewModel.cards.asObservable(), viewModel.state.asObservable())
            .subscribe(onNext: { [spinner] cards, state in
                if cards.isEmpty && state == .loading { spinner.startAnimating() } else { spinner.stopAnimating() }
            })
            .disposed(by: disposeBag)
        let retry = AnyObserver<Void> { [weak viewModel] event in
            if case .next = event { viewModel?.load() }
        }
        viewModel.state.map { $0 == .loading ? .loaded : $0 }   // the spinner, not a skeleton
            .bind(to: table.rx.loadState(retry: retry))
            .disposed(by: disposeBag)
        viewModel.banner.subscribe(onNext: { [banner] text in
            banner.text = text
            banner.isHidden = text == nil
        }).disposed(by: disposeBag)
        table.rx.modelSelected(FeaturedCard.self)
            .subscribe(onNext: { [weak app] card in app?.open(card) })
            .disposed(by: disposeBag)
    }
}

// MARK: - Selector

/// The Selector's state: the pages (filtered by the selected category chips), the current
/// page, and the thumbnail strip in sync with it.
public final class SelectorViewModel {
    /// The pizzas, one page each.
    public let pages = BehaviorRelay<[PizzaPage]>(value: [])
    /// The current page.
    public let index = BehaviorRelay<Int>(value: 0)
    /// The selected category chips (none: the whole menu).
    public let selectedCategories = BehaviorRelay<Set<Int>>(value: [])
    /// The categories, one chip each.
    public let categories: [Category]
    private let cart: CartRepository
    private var pendingPizzaID: Int?
    private let disposeBag = DisposeBag()

    init(menu: MenuRepository, cart: CartRepository, startAt pizzaID: Int?) {
        self.cart = cart
        self.categories = menu.categories
        self.pendingPizzaID = pizzaID
        selectedCategories.asObservable()
            .flatMapLatest { menu.pizzas(inAnyOf: $0) }
            .subscribe(onNext: { [weak self] pages in self?.show(pages) })
            .disposed(by: disposeBag)
    }

    private func show(_ newPages: [PizzaPage]) {
        let currentID = current?.id
        pages.accept(newPages)
        if let wanted = pendingPizzaID, let position = newPages.firstIndex(where: { $0.id == wanted }) {
            pendingPizzaID = nil
            index.accept(position)
        } else if let currentID, let position = newPages.firstIndex(where: { $0.id == currentID }) {
            index.accept(position)
        } else {
            index.accept(0)
        }
    }

    /// The pizza on the current page.
    public var current: PizzaPage? {
        let pages = self.pages.value
        return pages.indices.contains(index.value) ? pages[index.value] : nil
    }

    /// The current page, as it changes.
    public var currentPage: Observable<PizzaPage?> {
        Observable.combineLatest(pages.asObservable(), index.asObservable()) { pages, index in
            pages.indices.contains(index) ? pages[index] : nil
        }
    }

    /// The thumbnail strip: every name, the current one in brackets.
    public var thumbnails: Observable<String> {
        Observable.combineLatest(pages.asObservable(), index.asObservable()) { pages, index in
            pages.enumerated().map { $0.offset == index ? "[\($0.element.name)]" : $0.element.name }.joined(separator: " · ")
        }
    }

    /// Shows the next page (the last stays).
    public func next() { index.accept(min(index.value + 1, max(pages.value.count - 1, 0))) }
    /// Shows the previous page.
    public func previous() { index.accept(max(index.value - 1, 0)) }
    /// Shows page `position` (0-based), when it exists.
    public func select(_ position: Int) { if pages.value.indices.contains(position) { index.accept(position) } }

    /// Selects or deselects a category chip.
    public func toggle(categoryID: Int) {
        var selected = selectedCategories.value
        if selected.contains(categoryID) { selected.remove(categoryID) } else { selected.insert(categoryID) }
        selectedCategories.accept(selected)
    }

    /// Adds the current pizza to the cart.
    public func addToCart() throws {
        guard let pizza = current else { return }
        try cart.add(id: "pizza-\(pizza.id)", name: pizza.name, summary: pizza.summary, unitPrice: pizza.cents)
    }
}

/// The Selector: one pizza per page with Add to cart, a thumbnail strip, category chips.
public final class SelectorScreen: PizzaioloScreen {
    /// The view model.
    public let viewModel: SelectorViewModel
    /// Shown while there is no pizza yet.
    public let skeleton = SkeletonView(rows: 2)
    /// The category chips.
    public private(set) var chips: [Button] = []
    /// The pizza's name.
    public let nameLabel = Label()
    /// One line about it.
    public let summaryLabel = Label()
    /// Its price.
    public let priceLabel = Label()
    /// Its photo.
    public let photo = ImageView()
    /// Adds it to the cart.
    public let addButton = Button(title: "Add to cart")
    /// The previous page.
    public let previousButton = Button(title: "‹")
    /// The next page.
    public let nextButton = Button(title: "›")
    /// The strip of names.
    public let thumbnails = Label()

    init(app: PizzaioloApp, startAt pizzaID: Int?) {
        viewModel = SelectorViewModel(menu: app.menu, cart: app.cart, startAt: pizzaID)
        super.init(app: app, title: "Pizzas")
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let chipBar = View()
        chipBar.accessibilityIdentifier = "chips"
        for category in viewModel.categories {
            let chip = Button(title: category.name)
            chip.onTap = { [weak viewModel] in viewModel?.toggle(categoryID: category.id) }
            chips.append(chip)
            chipBar.addSubview(chip)
        }
        let page = View()
        page.accessibilityIdentifier = "page"
        for view in [nameLabel, summaryLabel, priceLabel, photo, addButton] as [View] { page.addSubview(view) }
        let pager = View()
        pager.accessibilityIdentifier = "pager"
        for view in [previousButton, thumbnails, nextButton] as [View] { pager.addSubview(view) }
        for view in [chipBar, skeleton, page, pager] { self.view.addSubview(view) }

        let viewModel = self.viewModel
        viewModel.selectedCategories
            .subscribe(onNext: { [chips, categories = viewModel.categories] selected in
                for (chip, category) in zip(chips, categories) { chip.isSelected = selected.contains(category.id) }
            })
            .disposed(by: disposeBag)
        let images = app?.images
        viewModel.currentPage
            .subscribe(onNext: { [nameLabel, summaryLabel, priceLabel, photo, skeleton, page] pizza in
                skeleton.isHidden = pizza != nil
                page.isHidden = pizza == nil
                nameLabel.text = pizza?.name
                summaryLabel.text = pizza?.summary
                priceLabel.text = pizza?.price
                if let images { photo.load(pizza?.photoURL, from: images, placeholder: PizzaioloApp.placeholder) }
            })
            .disposed(by: disposeBag)
        viewModel.thumbnails.bind(to: thumbnails.rx.text).disposed(by: disposeBag)
        Observable.combineLatest(viewModel.pages.asObservable(), viewModel.index.asObservable())
            .subscribe(onNext: { [previousButton, nextButton] pages, index in
                previousButton.isEnabled = index > 0
                nextButton.isEnabled = index < pages.count - 1
            })
            .disposed(by: disposeBag)
        previousButton.onTap = { [weak viewModel] in viewModel?.previous() }
        nextButton.onTap = { [weak viewModel] in viewModel?.next() }
        addButton.onTap = { [weak viewModel] in try? viewModel?.addToCart() }
    }
}

// MARK: - Maker

/// A topping of the Maker.
public struct Topping: Hashable, Sendable {
    /// A stable id (the identity of a custom pizza is its sorted topping ids).
    public let id: String
    /// The name shown.
    public let name: String
    /// The price in cents.
    public let cents: Int
}

/// The Maker's state: toppings by section, the price, and what Add to cart adds.
public final class MakerViewModel {
    /// The base price of a custom pizza: $2.99.
    public static let basePrice = 299
    /// The toppings, by section.
    public static let sections: [(title: String, toppings: [Topping])] = [
        ("Cheese", [Topping(id: "mozzarella", name: "Mozzarella", cents: 100), Topping(id: "gorgonzola", name: "Gorgonzola", cents: 150)]),
        ("Meat", [Topping(id: "ham", name: "Ham", cents: 150), Topping(id: "salami", name: "Salami", cents: 125)]),
        ("Vegetables", [Topping(id: "mushrooms", name: "Mushrooms", cents: 75), Topping(id: "olives", name: "Olives", cents: 50), Topping(id: "basil", name: "Basil", cents: 25)]),
    ]

    /// The chosen toppings' ids.
    public let chosen = BehaviorRelay<Set<String>>(value: [])
    private let cart: CartRepository

    init(cart: CartRepository) { self.cart = cart }

    /// Chooses or drops a topping.
    public func toggle(_ toppingID: String) {
        var set = chosen.value
        if set.contains(toppingID) { set.remove(toppingID) } else { set.insert(toppingID) }
        chosen.accept(set)
    }

    /// The chosen toppings, in menu order.
    public static func toppings(_ ids: Set<String>) -> [Topping] {
        sections.flatMap(\.toppings).filter { ids.contains($0.id) }
    }

    /// The price for `ids`: the base plus each topping.
    public static func price(_ ids: Set<String>) -> Int {
        basePrice + toppings(ids).reduce(0) { $0 + $1.cents }
    }

    /// The identity of a custom pizza: the same toppings in any order give the same id.
    public static func identity(_ ids: Set<String>) -> String { "custom-" + ids.sorted().joined(separator: "+") }

    /// Adds the custom pizza ("Custom Pizza", its toppings as the summary) to the cart.
    public func addToCart() throws {
        let ids = chosen.value
        guard !ids.isEmpty else { return }
        try cart.add(id: Self.identity(ids), name: "Custom Pizza",
                     summary: Self.toppings(ids).map(\.name).joined(separator: ", "), unitPrice: Self.price(ids))
    }
}

/// The Maker: topping buttons by section, the price, Add to cart once a topping is chosen.
public final class MakerScreen: PizzaioloScreen {
    /// The view model.
    public let viewModel: MakerViewModel
    /// The topping buttons, by id.
    public private(set) var toppingButtons: [String: Button] = [:]
    /// `Price: $4.74`.
    public let priceLabel = Label()
    /// The chosen toppings.
    public let summaryLabel = Label()
    /// Hidden while no topping is chosen.
    public let addButton = Button(title: "Add to cart")

    init(app: PizzaioloApp) {
        viewModel = MakerViewModel(cart: app.cart)
        super.init(app: app, title: "Maker")
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        for section in MakerViewModel.sections {
            let group = View()
            group.accessibilityIdentifier = section.title
            for topping in section.toppings {
                let button = Button(title: "\(topping.name) +\(dollars(topping.cents).format())")
                button.onTap = { [weak viewModel] in viewModel?.toggle(topping.id) }
                toppingButtons[topping.id] = button
                group.addSubview(button)
            }
            view.addSubview(group)
        }
        for view in [summaryLabel, priceLabel, addButton] as [View] { self.view.addSubview(view) }
        viewModel.chosen
            .subscribe(onNext: { [toppingButtons, priceLabel, summaryLabel, addButton] chosen in
                for (id, button) in toppingButtons { button.isSelected = chosen.contains(id) }
                priceLabel.text = "Price: \(dollars(MakerViewModel.price(chosen)).format())"
                let names = MakerViewModel.toppings(chosen).map(\.name)
                summaryLabel.text = names.isEmpty ? "Choose your toppings" : names.joined(separator: ", ")
                addButton.isHidden = chosen.isEmpty
            })
            .disposed(by: disposeBag)
        addButton.onTap = { [weak viewModel] in try? viewModel?.addToCart() }
    }
}

// MARK: - Cart

/// A cart line's cell: name, `×N`, the line total, − and +.
public final class CartCell: TableViewCell {
    /// The name.
    public let nameLabel = Label()
    /// `×2`.
    public let quantityLabel = Label()
    /// The line total.
    public let totalLabel = Label()
    /// One fewer; disabled at one.
    public let minusButton = Button(title: "−")
    /// One more.
    public let plusButton = Button(title: "+")

    /// Creates a cell.
    public required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
        for view in [nameLabel, quantityLabel, totalLabel, minusButton, plusButton] as [View] { contentView.addSubview(view) }
    }
}

/// The Cart: lines with + and −, swipe to delete (animated from the store's changes), the
/// totals line, Pay, and a message when empty.
public final class CartScreen: PizzaioloScreen {
    /// The lines.
    public let table = TableView(height: 200, rowHeight: 40)
    /// `3 pizzas: $26.97`.
    public let totalsLabel = Label()
    /// Shown when the cart is empty.
    public let emptyLabel = Label(text: "Your cart is empty")
    /// Opens Payment; hidden when the cart is empty.
    public let payButton = Button(title: "Pay")
    /// The data source (animated row updates from each change).
    public let dataSource: RxTableViewSectionedAnimatedDataSource<AnimatableSectionModel<String, CartRow>>

    init(app: PizzaioloApp) {
        let cart = app.cart
        dataSource = RxTableViewSectionedAnimatedDataSource(configureCell: { _, table, indexPath, row in
            let cell = table.dequeueReusableCell(withIdentifier: "Line", for: indexPath) as! CartCell
            cell.nameLabel.text = row.name
            cell.quantityLabel.text = row.quantityText
            cell.totalLabel.text = row.total
            cell.minusButton.isEnabled = row.quantity > 1
            cell.minusButton.onTap = { try? cart.decrement(row.id) }
            cell.plusButton.onTap = { try? cart.increment(row.id) }
            return cell
        })
        dataSource.canEditRowAtIndexPath = { _, _ in true }   // swipe to delete
        super.init(app: app, title: "Cart")
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        for view in [table, totalsLabel, emptyLabel, payButton] as [View] { self.view.addSubview(view) }
        table.register(CartCell.self, forCellReuseIdentifier: "Line")
        guard let app else { return }
        let rows = app.cart.rows.share(replay: 1)
        rows.map { [AnimatableSectionModel(model: "cart", items: $0)] }
            .bind(to: table.rx.items(dataSource: dataSource))
            .disposed(by: disposeBag)
        rows.subscribe(onNext: { [totalsLabel, emptyLabel, payButton] rows in
            let count = rows.reduce(0) { $0 + $1.quantity }
            let total = rows.reduce(0) { $0 + $1.totalCents }
            totalsLabel.text = "\(count) pizza\(count == 1 ? "" : "s"): \(dollars(total).format())"
            totalsLabel.isHidden = rows.isEmpty
            emptyLabel.isHidden = !rows.isEmpty
            payButton.isHidden = rows.isEmpty
        }).disposed(by: disposeBag)
        table.rx.modelDeleted(CartRow.self)
            .subscribe(onNext: { [weak app] row in try? app?.cart.remove(row.id) })
            .disposed(by: disposeBag)
        payButton.onTap = { [weak app] in app?.openPayment() }
    }
}

// MARK: - Payment

/// Payment: the total, three ways to pay merged into one tap stream, and the order's fate.
public final class PaymentScreen: PizzaioloScreen {
    /// `Total: $26.97`.
    public let totalLabel = Label()
    /// Pay by card.
    public let cardButton = Button(title: "Card")
    /// Pay with a wallet.
    public let walletButton = Button(title: "Wallet")
    /// Pay cash on delivery.
    public let cashButton = Button(title: "Cash")
    /// `Order Placed`, or why it failed.
    public let statusLabel = Label()

    init(app: PizzaioloApp) {
        super.init(app: app, title: "Payment")
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        for view in [totalLabel, cardButton, walletButton, cashButton, statusLabel] as [View] { self.view.addSubview(view) }
        guard let app else { return }
        app.orders.status.accept(.idle)
        let rows = app.cart.rows
        Observable.combineLatest(rows, app.orders.status.asObservable())
            .subscribe(onNext: { [totalLabel, statusLabel, cardButton, walletButton, cashButton] rows, status in
                let total = rows.reduce(0) { $0 + $1.totalCents }
                if case .placed = status {} else { totalLabel.text = "Total: \(dollars(total).format())" }
                switch status {
                case .idle: statusLabel.text = nil
                case .sending: statusLabel.text = "Sending your order…"
                case .placed: statusLabel.text = "Order Placed"
                case .failed(let reason): statusLabel.text = "Payment failed: \(reason)"
                }
                statusLabel.isHidden = statusLabel.text == nil
                let canPay = !rows.isEmpty && status != .sending
                for button in [cardButton, walletButton, cashButton] { button.isEnabled = canPay }
            })
            .disposed(by: disposeBag)
        Observable.merge(
            cardButton.rx.tap.map { "card" },
            walletButton.rx.tap.map { "wallet" },
            cashButton.rx.tap.map { "cash" })
            .subscribe(onNext: { [weak app] method in try? app?.orders.place(method: method) })
            .disposed(by: disposeBag)
    }
}
