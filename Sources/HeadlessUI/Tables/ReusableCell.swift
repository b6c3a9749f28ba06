import Foundation
import Streams

/// A view that a table or collection view reuses for many rows: the base of
/// ``TableViewCell`` and ``CollectionViewCell``.
///
/// A cell leaving the viewport goes back to its list's reuse pool and ``prepareForReuse()``
/// runs at once, so anything it was waiting for (an image, a subscription in a
/// `disposeBag` it recreates there) stops before the cell shows another row.
@MainActor
open class ReusableCell: View {
    /// The identifier the cell was registered and dequeued with.
    public let reuseIdentifier: String?
    /// The row the cell shows while visible; `nil` while in the reuse pool.
    public internal(set) var indexPath: IndexPath?
    /// Whether the cell's row is selected.
    public var isSelected = false
    /// The container for the cell's content; subviews go here.
    public let contentView = View()

    /// Creates a cell; lists call it when the reuse pool is empty.
    ///
    /// - Parameter reuseIdentifier: The identifier the cell is registered with.
    public required init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init()
        addSubview(contentView)
    }

    /// Called when the cell leaves the viewport, before it can be dequeued for another row.
    ///
    /// Subclasses reset per-row state here (call `super`): the default cancels an image
    /// load started with ``ImageView/load(_:from:placeholder:)`` on any image view in the
    /// cell.
    open func prepareForReuse() {
        for imageView in descendants(ofType: ImageView.self) { imageView.cancelImageLoad() }
    }

    /// `Name [section,row]`.
    open override var renderDescription: String {
        "\(typeName) \(indexPath?.shortDescription ?? "[reusable]")\(isSelected ? " (selected)" : "")\(accessibilitySuffix)"
    }

    /// The content view's children, so cells render one level deep.
    open override var renderedChildren: [View] {
        var children: [View] = []
        if let backgroundView { children.append(backgroundView) }
        return children + contentView.renderedChildren + subviews.filter { $0 !== contentView }
    }
}

/// A table row's view, with UIKit's optional standard content.
@MainActor
open class TableViewCell: ReusableCell {
    /// The main text, created on first use.
    public private(set) lazy var textLabel: Label? = makeContent(Label())
    /// Secondary text, created on first use.
    public private(set) lazy var detailTextLabel: Label? = makeContent(Label())
    /// An image, created on first use.
    public private(set) lazy var imageView: ImageView? = makeContent(ImageView())

    /// Creates a cell.
    ///
    /// - Parameter reuseIdentifier: The identifier the cell is registered with.
    public required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
    }

    private func makeContent<V: View>(_ view: V) -> V {
        contentView.addSubview(view)
        return view
    }
}

/// A collection item's view.
@MainActor
open class CollectionViewCell: ReusableCell {
    /// Creates a cell.
    ///
    /// - Parameter reuseIdentifier: The identifier the cell is registered with.
    public required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
    }
}
