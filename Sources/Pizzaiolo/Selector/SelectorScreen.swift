import Foundation
import HeadlessUI
import Streams

/// The Selector: one pizza per page with Add to cart, a thumbnail strip, category chips, and
/// the list of the pizzas the chips select (a chip switch animates it; a row tap shows its
/// page).
public final class SelectorScreen: PizzaioloScreen {
    /// The view model, made from the screen's taps by the function the app gave.
    public private(set) lazy var viewModel = makeViewModel(SelectorViewModel.Input(
        toggleCategory: Observable.merge(zip(categories, chips).map { category, chip in chip.rx.tap.map { category.id } }),
        next: nextButton.rx.tap.asObservable(),
        previous: previousButton.rx.tap.asObservable(),
        select: Observable.merge(pageJumps.asObservable(), list.rx.itemSelected.map(\.row)),
        addToCart: addButton.rx.tap.asObservable()))
    private let makeViewModel: (SelectorViewModel.Input) -> SelectorViewModel
    /// Shown while there is no pizza yet.
    public let skeleton = SkeletonView(rows: 2)
    /// The categories, one chip each.
    public let categories: [Category]
    /// The category chips.
    public let chips: [Button]
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
    /// The pizzas the chips select, one row each (name and price), in page order.
    public let list = TableView(height: 180, rowHeight: 20)
    /// The list's data source: each change set of ``SelectorViewModel/list`` is one batch
    /// update.
    public let dataSource = RxTableViewSectionedChangesetDataSource<SectionModel<String, PizzaPage>>(configureCell: { _, table, indexPath, page in
        let cell = table.dequeueReusableCell(withIdentifier: "Pizza", for: indexPath)
        cell.textLabel?.text = page.name
        cell.detailTextLabel?.text = page.price
        return cell
    })
    /// Jumps to a page: the strip's taps (headless, the strip has no tap of its own).
    private let pageJumps = PublishRelay<Int>()

    /// Creates the screen; `makeViewModel` (the app's) turns its taps into the view model.
    ///
    /// - Parameters:
    ///   - app: The app, for navigation and photos.
    ///   - categories: One chip each.
    ///   - makeViewModel: Makes the view model from the screen's taps.
    init(app: PizzaioloApp, categories: [Category], viewModel makeViewModel: @escaping (SelectorViewModel.Input) -> SelectorViewModel) {
        self.categories = categories
        chips = categories.map { Button(title: $0.name) }
        self.makeViewModel = makeViewModel
        super.init(app: app, title: "Pizzas")
    }

    /// Shows the page at `position` (0-based), when it exists: a tap on the thumbnail strip.
    ///
    /// - Parameter position: The page.
    public func select(page position: Int) { pageJumps.accept(position) }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let chipBar = View()
        chipBar.accessibilityIdentifier = "chips"
        let page = View()
        page.accessibilityIdentifier = "page"
        for view in [nameLabel, summaryLabel, priceLabel, photo, addButton] as [View] { page.addSubview(view) }
        let pager = View()
        pager.accessibilityIdentifier = "pager"
        for view in [previousButton, thumbnails, nextButton] as [View] { pager.addSubview(view) }
        for view in [chipBar, skeleton, page, pager, list] { self.view.addSubview(view) }
        list.register(TableViewCell.self, forCellReuseIdentifier: "Pizza")

        let viewModel = self.viewModel
        for (category, chip) in zip(categories, chips) {
            chipBar.addSubview(chip)
            viewModel.selectedCategories.map { $0.contains(category.id) }.drive(chip.rx.isSelected).disposed(by: disposeBag)
        }
        let current = viewModel.currentPage
        current.map { $0 != nil }.drive(skeleton.rx.isHidden).disposed(by: disposeBag)
        current.map { $0 == nil }.drive(page.rx.isHidden).disposed(by: disposeBag)
        current.map { $0?.name }.drive(nameLabel.rx.text).disposed(by: disposeBag)
        current.map { $0?.summary }.drive(summaryLabel.rx.text).disposed(by: disposeBag)
        current.map { $0?.price }.drive(priceLabel.rx.text).disposed(by: disposeBag)
        if let images = app?.images {
            current.map { $0?.photoURL }
                .drive(Binder(photo) { photo, url in photo.load(url, from: images, placeholder: PizzaioloApp.placeholder) })
                .disposed(by: disposeBag)
        }
        viewModel.thumbnails.drive(thumbnails.rx.text).disposed(by: disposeBag)
        viewModel.canGoBack.drive(previousButton.rx.isEnabled).disposed(by: disposeBag)
        viewModel.canGoForward.drive(nextButton.rx.isEnabled).disposed(by: disposeBag)
        viewModel.list.drive(list.rx.items(dataSource: dataSource)).disposed(by: disposeBag)
        showErrors(viewModel.addToCart)
    }
}
