import Foundation
import HeadlessUI

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

    /// Shows `card`, its photo loaded lazily from `images` (never into a cell that moved on).
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
