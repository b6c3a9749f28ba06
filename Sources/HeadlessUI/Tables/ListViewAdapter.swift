import Foundation
import Streams

/// What a concrete list supplies to the ``ListView`` machinery: its data source's counts and
/// cells, its layout, and the delegate calls for display, prefetching, selection and deletion.
///
/// ``TableView`` and ``CollectionView`` are the adapters: each sets itself as its list's
/// adapter, so the machinery asks one object, through one protocol, instead of calling
/// overridable no-op methods. The optional parts have defaults below.
@MainActor
protocol ListViewAdapter: ListView {
    /// The number of sections the data source has.
    func dataSourceSectionCount() -> Int
    /// The number of items in `section`.
    func dataSourceItemCount(in section: Int) -> Int
    /// The cell for `indexPath`, dequeued by the data source.
    func dataSourceCell(at indexPath: IndexPath) -> ReusableCell?
    /// The header and footer titles of `section`; none by default.
    func dataSourceTitles(in section: Int) -> (header: String?, footer: String?)
    /// The tops and heights of `count` items of `section` laid out from `top`, and the bottom.
    func layoutItems(section: Int, count: Int, top: Double) -> (tops: [Double], heights: [Double], bottom: Double)
    /// Tells the delegate that `cell` is about to be shown at `indexPath`.
    func willDisplay(_ cell: ReusableCell, at indexPath: IndexPath)
    /// Tells the delegate that `cell` left the screen from `indexPath`.
    func didEndDisplaying(_ cell: ReusableCell, at indexPath: IndexPath)
    /// Announces rows coming near the viewport to the prefetching data source.
    func prefetch(_ indexPaths: [IndexPath])
    /// Withdraws an announcement made by ``prefetch(_:)``.
    func cancelPrefetching(_ indexPaths: [IndexPath])
    /// Tells the delegate a tap selected `indexPath`.
    func didSelect(_ indexPath: IndexPath)
    /// Tells the delegate `indexPath` was deselected.
    func didDeselect(_ indexPath: IndexPath)
    /// Asks the data source to delete `indexPath`; `false` when it cannot be edited.
    func commitDelete(_ indexPath: IndexPath) -> Bool
    /// The start of the rendered description (`TableView`, `CollectionView 2 per row,`).
    func describeList() -> String
    /// What one item is called in the rendered description (`row`, `item`).
    var itemNoun: String { get }
}

extension ListViewAdapter {
    func willDisplay(_ cell: ReusableCell, at indexPath: IndexPath) {}
    func didEndDisplaying(_ cell: ReusableCell, at indexPath: IndexPath) {}
    func commitDelete(_ indexPath: IndexPath) -> Bool { false }
    func dataSourceTitles(in section: Int) -> (header: String?, footer: String?) { (nil, nil) }
    func describeList() -> String { typeName }
    var itemNoun: String { "row" }
}
