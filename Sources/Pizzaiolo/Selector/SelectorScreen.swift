import Foundation
import HeadlessUI
import Streams

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

    init(app: PizzaioloApp, startAt start: SelectorViewModel.Start?) {
        viewModel = SelectorViewModel(menu: app.menu, cart: app.cart, startAt: start)
        super.init(app: app, title: "Pizzas")
    }

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
        for view in [chipBar, skeleton, page, pager] { self.view.addSubview(view) }

        let viewModel = self.viewModel
        for category in viewModel.categories {
            let chip = Button(title: category.name)
            chips.append(chip)
            chipBar.addSubview(chip)
            chip.rx.tap.map { category.id }.bind(to: viewModel.toggleCategory).disposed(by: disposeBag)
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
        previousButton.rx.tap.bind(to: viewModel.previous).disposed(by: disposeBag)
        nextButton.rx.tap.bind(to: viewModel.next).disposed(by: disposeBag)
        addButton.rx.tap.bind(to: viewModel.addToCart.inputs).disposed(by: disposeBag)
        showErrors(viewModel.error)
    }
}
