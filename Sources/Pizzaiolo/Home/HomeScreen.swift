import Foundation
import HeadlessUI
import Streams

/// Home: the featured cards, a spinner while there are none, the error view when the first
/// load failed (its Retry is the menu's reload input), and a stale-data banner. Tapping a card
/// opens what it offers. The screen is given its view model and the reload input, and only
/// binds them.
public final class HomeScreen: PizzaioloScreen {
    /// The view model.
    public let viewModel: HomeViewModel
    /// Turns while there is nothing to show yet.
    public let spinner = ActivityIndicatorView()
    /// The stale-data banner.
    public let banner = Label()
    /// The cards.
    public let table = TableView(height: 180, rowHeight: 60)

    /// Where the error view's Retry sends its taps.
    private let retry: AnyObserver<Void>

    init(app: PizzaioloApp, viewModel: HomeViewModel, retry: AnyObserver<Void>) {
        self.viewModel = viewModel
        self.retry = retry
        super.init(app: app, title: "Pizzaiolo")
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        for view in [banner, spinner, table] as [View] { self.view.addSubview(view) }
        table.register(FeaturedCell.self, forCellReuseIdentifier: "Featured")
        guard let app else { return }
        let images = app.images
        viewModel.cards
            .drive(table.rx.items(cellIdentifier: "Featured", cellType: FeaturedCell.self)) { _, card, cell in
                cell.configure(card, images: images)
            }
            .disposed(by: disposeBag)
        viewModel.isLoading.drive(spinner.rx.isAnimating).disposed(by: disposeBag)
        viewModel.background.drive(table.rx.loadState(retry: retry)).disposed(by: disposeBag)
        viewModel.banner.drive(banner.rx.text).disposed(by: disposeBag)
        viewModel.banner.map { $0 == nil }.drive(banner.rx.isHidden).disposed(by: disposeBag)
        table.rx.modelSelected(FeaturedCard.self).bind(to: app.rx.open).disposed(by: disposeBag)
    }
}
