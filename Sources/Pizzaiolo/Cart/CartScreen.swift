import Foundation
import HeadlessUI
import Streams

/// The Cart: lines with + and −, swipe to delete (animated from the store's change sets), the
/// totals line, Pay, and a message when empty.
public final class CartScreen: PizzaioloScreen {
    /// The view model.
    public let viewModel: CartViewModel
    /// The lines.
    public let table = TableView(height: 200, rowHeight: 40)
    /// `3 pizzas: $26.97`.
    public let totalsLabel = Label()
    /// Shown when the cart is empty.
    public let emptyLabel = Label(text: "Your cart is empty")
    /// Opens Payment; hidden when the cart is empty.
    public let payButton = Button(title: "Pay")
    /// The data source: each store change set becomes one batch update.
    public let dataSource: RxTableViewSectionedChangesetDataSource<SectionModel<String, CartRow>>

    init(app: PizzaioloApp, viewModel: CartViewModel) {
        self.viewModel = viewModel
        dataSource = RxTableViewSectionedChangesetDataSource(configureCell: { [weak viewModel] _, table, indexPath, row in
            let cell = table.dequeueReusableCell(withIdentifier: "Line", for: indexPath)
            if let cell = cell as? CartCell, let viewModel { cell.configure(row, viewModel: viewModel) }
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
        viewModel.lines.drive(table.rx.items(dataSource: dataSource)).disposed(by: disposeBag)
        viewModel.totals.drive(totalsLabel.rx.text).disposed(by: disposeBag)
        viewModel.isEmpty.drive(totalsLabel.rx.isHidden, payButton.rx.isHidden).disposed(by: disposeBag)
        viewModel.isEmpty.map(!).drive(emptyLabel.rx.isHidden).disposed(by: disposeBag)
        table.rx.modelDeleted(CartRow.self).map(\.id).bind(to: viewModel.remove.inputs).disposed(by: disposeBag)
        payButton.rx.tap.bind(to: app.rx.openPayment).disposed(by: disposeBag)
        showErrors(viewModel.error)
    }
}
