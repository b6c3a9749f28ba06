import Foundation
import Streams

/// Supplies a ``CollectionView``'s items (UIKit's `UICollectionViewDataSource`).
@MainActor
public protocol CollectionViewDataSource: AnyObject {
    /// The number of sections; 1 by default.
    func numberOfSections(in collectionView: CollectionView) -> Int
    /// The number of items in `section`.
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    /// The cell for the item, usually from
    /// ``CollectionView/dequeueReusableCell(withReuseIdentifier:for:)``.
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell
}

extension CollectionViewDataSource {
    /// One section.
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
}

/// Reacts to a ``CollectionView``'s events (UIKit's `UICollectionViewDelegate`).
@MainActor
public protocol CollectionViewDelegate: AnyObject {
    /// An item was tapped.
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath)
    /// An item was deselected.
    func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath)
}

extension CollectionViewDelegate {
    /// Nothing happens.
    public func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {}
    /// Nothing happens.
    public func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath) {}
}

/// Hears about items that will soon be shown (UIKit's `UICollectionViewDataSourcePrefetching`).
@MainActor
public protocol CollectionViewDataSourcePrefetching: AnyObject {
    /// Items that will soon be shown.
    func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath])
    /// Items announced before that are no longer about to be shown.
    func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath])
}

/// A headless collection view: a grid of ``itemsPerRow`` columns, each line
/// ``itemHeight`` high; every section starts a new line.
@MainActor
open class CollectionView: ListView {
    /// Items side by side on a line.
    public var itemsPerRow: Int {
        didSet { if oldValue != itemsPerRow { reloadData() } }
    }
    /// The height of a line of items.
    public var itemHeight: Double {
        didSet { if oldValue != itemHeight { reloadData() } }
    }
    /// Supplies the items; held weakly.
    public weak var dataSource: CollectionViewDataSource? {
        didSet { reloadData() }
    }
    /// Hears about taps; held weakly.
    public weak var delegate: CollectionViewDelegate?
    /// Hears about items that will soon be shown; held weakly.
    public weak var prefetchDataSource: CollectionViewDataSourcePrefetching?

    var retainedDataSource: AnyObject?

    /// Creates an empty collection view.
    ///
    /// - Parameters:
    ///   - height: The viewport's height.
    ///   - itemsPerRow: Items side by side.
    ///   - itemHeight: The height of a line.
    public init(height: Double = 440, itemsPerRow: Int = 2, itemHeight: Double = 100) {
        precondition(itemsPerRow > 0, "A collection view needs at least one item per row")
        self.itemsPerRow = itemsPerRow
        self.itemHeight = itemHeight
        super.init(height: height)
        adapter = self
    }

    /// Registers the class used for cells with `identifier`.
    ///
    /// - Parameters:
    ///   - cellClass: A ``CollectionViewCell`` subclass.
    ///   - identifier: The reuse identifier.
    public func register(_ cellClass: CollectionViewCell.Type, forCellWithReuseIdentifier identifier: String) {
        registerCell(cellClass, identifier: identifier)
    }

    /// A cell from the reuse pool, or a new one of the registered class.
    ///
    /// - Parameters:
    ///   - identifier: The reuse identifier.
    ///   - indexPath: The item the cell is for.
    /// - Returns: The cell.
    public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> CollectionViewCell {
        guard let cell = dequeueCell(identifier: identifier, for: indexPath) else { return CollectionViewCell(reuseIdentifier: identifier) }
        if let collectionCell = cell as? CollectionViewCell { return collectionCell }
        HeadlessUIHooks.report("the cell registered for \(identifier) is not a CollectionViewCell")
        return CollectionViewCell(reuseIdentifier: identifier)
    }

    /// The number of items in `section`.
    ///
    /// - Parameter section: A section index.
    /// - Returns: The count last read from the data source.
    public func numberOfItems(inSection section: Int) -> Int { itemCount(in: section) }

    /// The cell showing the item, or `nil` when it is off screen.
    ///
    /// - Parameter indexPath: The item.
    /// - Returns: The visible cell.
    public func cellForItem(at indexPath: IndexPath) -> CollectionViewCell? {
        reusableCell(at: indexPath) as? CollectionViewCell
    }

    /// The visible cells in index-path order.
    public var visibleCells: [CollectionViewCell] { visibleReusableCells.compactMap { $0 as? CollectionViewCell } }

    /// Simulates a tap on a visible item.
    ///
    /// - Parameter indexPath: The item.
    /// - Returns: `true` when the item was visible and selectable.
    @discardableResult
    public func tapItem(at indexPath: IndexPath) -> Bool { selectByTap(at: indexPath) }

    /// Deselects an item without telling the delegate.
    ///
    /// - Parameters:
    ///   - indexPath: The item.
    ///   - animated: Ignored.
    public func deselectItem(at indexPath: IndexPath, animated: Bool = false) {
        deselectItem(at: indexPath, notify: false)
    }

    /// Inserts items (new index paths).
    public func insertItems(at indexPaths: [IndexPath]) { record { $0.insertedRows += indexPaths } }
    /// Deletes items (old index paths).
    public func deleteItems(at indexPaths: [IndexPath]) { record { $0.deletedRows += indexPaths } }
    /// Reloads items (old index paths).
    public func reloadItems(at indexPaths: [IndexPath]) { record { $0.reloadedRows += indexPaths } }
    /// Moves an item.
    public func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) { record { $0.movedRows.append((indexPath, newIndexPath)) } }
    /// Inserts sections (new indexes).
    public func insertSections(_ sections: IndexSet) { record { $0.insertedSections.formUnion(sections) } }
    /// Deletes sections (old indexes).
    public func deleteSections(_ sections: IndexSet) { record { $0.deletedSections.formUnion(sections) } }
    /// Reloads sections (old indexes).
    public func reloadSections(_ sections: IndexSet) { record { $0.reloadedSections.formUnion(sections) } }
    /// Moves a section.
    public func moveSection(_ section: Int, toSection newSection: Int) { record { $0.movedSections.append((section, newSection)) } }

    // MARK: ListViewAdapter

    func dataSourceSectionCount() -> Int { dataSource.map { $0.numberOfSections(in: self) } ?? 0 }
    func dataSourceItemCount(in section: Int) -> Int { dataSource?.collectionView(self, numberOfItemsInSection: section) ?? 0 }
    func dataSourceCell(at indexPath: IndexPath) -> ReusableCell? { dataSource?.collectionView(self, cellForItemAt: indexPath) }
    func layoutItems(section: Int, count: Int, top: Double) -> (tops: [Double], heights: [Double], bottom: Double) {
        let tops = (0..<count).map { top + Double($0 / itemsPerRow) * itemHeight }
        let lines = (count + itemsPerRow - 1) / itemsPerRow
        return (tops, [Double](repeating: itemHeight, count: count), top + Double(lines) * itemHeight)
    }
    func prefetch(_ indexPaths: [IndexPath]) { prefetchDataSource?.collectionView(self, prefetchItemsAt: indexPaths) }
    func cancelPrefetching(_ indexPaths: [IndexPath]) { prefetchDataSource?.collectionView(self, cancelPrefetchingForItemsAt: indexPaths) }
    func didSelect(_ indexPath: IndexPath) { delegate?.collectionView(self, didSelectItemAt: indexPath) }
    func didDeselect(_ indexPath: IndexPath) { delegate?.collectionView(self, didDeselectItemAt: indexPath) }
    var itemNoun: String { "item" }
    func describeList() -> String { "\(typeName) \(itemsPerRow) per row," }
}

extension CollectionView: ListViewAdapter {}
