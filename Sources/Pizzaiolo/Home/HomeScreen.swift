import Foundation
import HeadlessUI
import Streams

/// Home: the featured cards, a spinner while there are none, the error view when the first
/// load failed (its Retry is the app's reload), and a stale-data banner. Tapping a card opens
/// what it offers. The screen is given its view model and only binds it.
public final class HomeScreen: PizzaioloScreen {
    /// The view model.
    public let viewModel: HomeViewModel
    /// Turns while there is nothing to show yet.
    public let spinner = ActivityIndicatorView()
    /// The stale-data banner.
    public let banner = Label()
    /// The cards.
    public let table = TableView(height: 180, rowHeight: 60)

    init(app: PizzaioloApp, viewModel: HomeViewModel) {
        self.viewModel = viewModel
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
        viewModel.loadState.drive(table.rx.loadState(retry: app.rx.reload)).disposed(by: disposeBag)
        viewModel.banner.drive(banner.rx.text).disposed(by: disposeBag)
        viewModel.banner.map { $0 == nil }.drive(banner.rx.isHidden).disposed(by: disposeBag)
        table.rx.modelSelected(FeaturedCard.self).bind(to: app.rx.open).disposed(by: disposeBag)
    }
}
