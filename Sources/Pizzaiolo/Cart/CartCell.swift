import Foundation
import HeadlessUI
import Streams

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
    /// The bindings of the row shown; a new bag for each row.
    public private(set) var disposeBag = DisposeBag()

    /// Creates a cell.
    public required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
        for view in [nameLabel, quantityLabel, totalLabel, minusButton, plusButton] as [View] { contentView.addSubview(view) }
    }

    /// Drops the previous row's bindings.
    public override func prepareForReuse() {
        super.prepareForReuse()
        disposeBag = DisposeBag()
    }

    /// Shows `row`; taps on − and + go to `viewModel` with the row's id.
    func configure(_ row: CartRow, viewModel: CartViewModel) {
        disposeBag = DisposeBag()
        nameLabel.text = row.name
        quantityLabel.text = row.quantityText
        totalLabel.text = row.total
        minusButton.isEnabled = row.quantity > 1
        minusButton.rx.tap.map { row.id }.bind(to: viewModel.decrement.inputs).disposed(by: disposeBag)
        plusButton.rx.tap.map { row.id }.bind(to: viewModel.increment.inputs).disposed(by: disposeBag)
    }
}
