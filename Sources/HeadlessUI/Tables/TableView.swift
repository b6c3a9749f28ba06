import Foundation
import Streams

/// Supplies a ``TableView``'s rows (UIKit's `UITableViewDataSource`).
@MainActor
public protocol TableViewDataSource: AnyObject {
    /// The number of sections; 1 by default.
    func numberOfSections(in tableView: TableView) -> Int
    /// The number of rows in `section`.
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int
    /// The cell for the row, usually from ``TableView/dequeueReusableCell(withIdentifier:for:)``.
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell
    /// Whether the row can be deleted by a swipe; `true` by default.
    func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool
    /// Commits a swipe-to-delete; does nothing by default.
    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath)
    /// The title shown above `section`, or `nil` for no header (the default).
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String?
    /// The title shown below `section`, or `nil` for no footer (the default).
    func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String?
}

extension TableViewDataSource {
    /// One section.
    public func numberOfSections(in tableView: TableView) -> Int { 1 }
    /// Every row is editable.
    public func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool { true }
    /// Nothing happens.
    public func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {}
    /// No header.
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { nil }
    /// No footer.
    public func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? { nil }
}

/// Reacts to a ``TableView``'s events and sizes its rows (UIKit's `UITableViewDelegate`).
@MainActor
public protocol TableViewDelegate: AnyObject {
    /// The row's height; ``TableView/rowHeight`` by default.
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double
    /// A row was tapped.
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath)
    /// A row was deselected.
    func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath)
    /// A cell is about to be shown.
    func tableView(_ tableView: TableView, willDisplay cell: TableViewCell, forRowAt indexPath: IndexPath)
    /// A cell left the viewport.
    func tableView(_ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath)
}

extension TableViewDelegate {
    /// ``TableView/rowHeight``.
    public func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double { tableView.rowHeight }
    /// Nothing happens.
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {}
    /// Nothing happens.
    public func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) {}
    /// Nothing happens.
    public func tableView(_ tableView: TableView, willDisplay cell: TableViewCell, forRowAt indexPath: IndexPath) {}
    /// Nothing happens.
    public func tableView(_ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath) {}
}

/// Hears about rows that will soon be shown, to start their work early
/// (UIKit's `UITableViewDataSourcePrefetching`).
///
/// Rows within ``ListView/prefetchDistance`` of the viewport are announced once; they are
/// cancelled when they leave that window *or become visible* (the cell then does its own
/// work), so prefetch work never doubles a cell's.
@MainActor
public protocol TableViewDataSourcePrefetching: AnyObject {
    /// Rows that will soon be shown.
    func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [IndexPath])
    /// Rows announced before that are no longer about to be shown.
    func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath])
}

extension TableViewCell {
    /// The editing action committed on a row.
    public enum EditingStyle: Sendable, Equatable {
        /// No editing.
        case none
        /// Delete the row.
        case delete
        /// Insert a row.
        case insert
    }
}

/// A headless table: sections of rows, a viewport, reusable cells and batch updates.
///
/// A section's header and footer titles (the data source's `titleForHeaderInSection` and
/// `titleForFooterInSection`) are read with the counts, on each reload and batch update, and
/// ``View/render()`` shows them as `Header "…"` and `Footer "…"` lines around the section's
/// visible rows, for each section on screen. They take no height: rows keep the offsets their
/// heights give them.
///
///     let table = TableView(height: 132, rowHeight: 44)          // 3 rows visible
///     table.register(PizzaCell.self, forCellReuseIdentifier: "Pizza")
///     table.dataSource = dataSource
///     table.cellForRow(at: IndexPath(row: 0, section: 0))         // the first cell
///     table.scroll(to: 440)                                       // rows 10–12 now
@MainActor
open class TableView: ListView {
    /// The height of each row unless the delegate says otherwise.
    public var rowHeight: Double {
        didSet { if oldValue != rowHeight { reloadData() } }
    }
    /// Supplies the rows; held weakly, as UIKit does (bindings retain their data source).
    public weak var dataSource: TableViewDataSource? {
        didSet { reloadData() }
    }
    /// Sizes rows and hears about taps; held weakly.
    public weak var delegate: TableViewDelegate? {
        didSet { reloadData() }
    }
    /// Hears about rows that will soon be shown; held weakly.
    public weak var prefetchDataSource: TableViewDataSourcePrefetching?

    var retainedDataSource: AnyObject?

    /// Creates an empty table.
    ///
    /// - Parameters:
    ///   - height: The viewport's height.
    ///   - rowHeight: The height of each row.
    public init(height: Double = 440, rowHeight: Double = 44) {
        self.rowHeight = rowHeight
        super.init(height: height)
        adapter = self
    }

    /// Registers the class used for cells with `identifier`.
    ///
    /// - Parameters:
    ///   - cellClass: A ``TableViewCell`` subclass.
    ///   - identifier: The reuse identifier.
    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) {
        registerCell(cellClass, identifier: identifier)
    }

    /// A cell from the reuse pool, or a new one of the registered class.
    ///
    /// A cell in the pool has already had ``ReusableCell/prepareForReuse()`` called.
    ///
    /// - Parameters:
    ///   - identifier: The reuse identifier.
    ///   - indexPath: The row the cell is for.
    /// - Returns: The cell; an unregistered identifier is a programming error.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> TableViewCell {
        guard let cell = dequeueCell(identifier: identifier, for: indexPath) else { return TableViewCell(reuseIdentifier: identifier) }
        if let tableCell = cell as? TableViewCell { return tableCell }
        HeadlessUIHooks.report("the cell registered for \(identifier) is not a TableViewCell")
        return TableViewCell(reuseIdentifier: identifier)
    }

    /// The number of rows in `section`.
    ///
    /// - Parameter section: A section index.
    /// - Returns: The count last read from the data source.
    public func numberOfRows(inSection section: Int) -> Int { itemCount(in: section) }

    /// The title of `section`'s header, as last read from the data source.
    ///
    /// - Parameter section: A section index.
    /// - Returns: The title, or `nil` when the section has no header or does not exist.
    public func headerTitle(forSection section: Int) -> String? {
        loadIfNeeded()
        return section >= 0 && section < sectionTitles.count ? sectionTitles[section].header : nil
    }

    /// The title of `section`'s footer, as last read from the data source.
    ///
    /// - Parameter section: A section index.
    /// - Returns: The title, or `nil` when the section has no footer or does not exist.
    public func footerTitle(forSection section: Int) -> String? {
        loadIfNeeded()
        return section >= 0 && section < sectionTitles.count ? sectionTitles[section].footer : nil
    }

    /// The background view, the subviews, then each section on screen: its header, its visible
    /// cells, its footer.
    open override var renderedChildren: [View] {
        loadIfNeeded()
        var children: [View] = []
        if let backgroundView { children.append(backgroundView) }
        children += subviews
        let cells = visible
        let bottom = contentOffset + height
        for section in 0..<counts.count {
            let rows = cells.keys.filter { $0[0] == section }.sorted()
            let top = section < sectionTops.count ? sectionTops[section] : 0
            // An empty section is on screen when its top is, the content's end included.
            let shown = !rows.isEmpty
                || (counts[section] == 0 && top >= contentOffset && (top < bottom || (top == bottom && top == contentHeightCache)))
            guard shown else { continue }
            let titles = section < sectionTitles.count ? sectionTitles[section] : (header: nil, footer: nil)
            if let header = titles.header { children.append(SectionTitleView(kind: "Header", title: header)) }
            children += rows.map { cells[$0]! }
            if let footer = titles.footer { children.append(SectionTitleView(kind: "Footer", title: footer)) }
        }
        return children
    }

    /// The cell showing the row, or `nil` when the row is off screen.
    ///
    /// - Parameter indexPath: The row.
    /// - Returns: The visible cell.
    public func cellForRow(at indexPath: IndexPath) -> TableViewCell? {
        reusableCell(at: indexPath) as? TableViewCell
    }

    /// The visible cells, top to bottom.
    public var visibleCells: [TableViewCell] { visibleReusableCells.compactMap { $0 as? TableViewCell } }
    /// The visible rows, top to bottom.
    public var indexPathsForVisibleRows: [IndexPath] { indexPathsForVisibleItems }
    /// The selected row, if any.
    public var indexPathForSelectedRow: IndexPath? { indexPathsForSelectedItems.first }
    /// The selected rows.
    public var indexPathsForSelectedRows: [IndexPath] { indexPathsForSelectedItems }

    /// Scrolls so that `indexPath` is at the top of the viewport (as far as the content allows).
    ///
    /// - Parameter indexPath: The row.
    public func scrollToRow(at indexPath: IndexPath) {
        if let top = offset(of: indexPath) { scroll(to: top) }
    }

    /// Simulates a tap on a visible row: selects it, tells the delegate, emits `itemSelected`.
    ///
    /// - Parameter indexPath: The row.
    /// - Returns: `true` when the row was visible and selectable.
    @discardableResult
    public func tapRow(at indexPath: IndexPath) -> Bool { selectByTap(at: indexPath) }

    /// Deselects a row without telling the delegate (as UIKit).
    ///
    /// - Parameters:
    ///   - indexPath: The row.
    ///   - animated: Ignored.
    public func deselectRow(at indexPath: IndexPath, animated: Bool = false) {
        deselectItem(at: indexPath, notify: false)
    }

    /// Simulates a swipe-to-delete on a visible row: the data source commits `.delete` and
    /// `itemDeleted` emits, when the data source allows editing the row.
    ///
    /// - Parameter indexPath: The row.
    /// - Returns: `true` when the delete was committed.
    @discardableResult
    public func swipeToDelete(rowAt indexPath: IndexPath) -> Bool { swipeToDelete(at: indexPath) }

    /// Inserts rows (new index paths); inside a batch, recorded, otherwise applied at once.
    public func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation = .automatic) {
        record { $0.insertedRows += indexPaths }
    }
    /// Deletes rows (old index paths).
    public func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation = .automatic) {
        record { $0.deletedRows += indexPaths }
    }
    /// Reloads rows (old index paths): their cells are replaced.
    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation = .automatic) {
        record { $0.reloadedRows += indexPaths }
    }
    /// Moves a row.
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.movedRows.append((indexPath, newIndexPath)) }
    }
    /// Inserts sections (new indexes).
    public func insertSections(_ sections: IndexSet, with animation: RowAnimation = .automatic) {
        record { $0.insertedSections.formUnion(sections) }
    }
    /// Deletes sections (old indexes).
    public func deleteSections(_ sections: IndexSet, with animation: RowAnimation = .automatic) {
        record { $0.deletedSections.formUnion(sections) }
    }
    /// Reloads sections (old indexes).
    public func reloadSections(_ sections: IndexSet, with animation: RowAnimation = .automatic) {
        record { $0.reloadedSections.formUnion(sections) }
    }
    /// Moves a section.
    public func moveSection(_ section: Int, toSection newSection: Int) {
        record { $0.movedSections.append((section, newSection)) }
    }

    /// UIKit's older batch API: the updates between these calls form one batch.
    ///
    /// Prefer ``ListView/performBatchUpdates(_:completion:)``.
    public func beginUpdates() { beginBatch() }

    /// Ends the batch started by ``beginUpdates()``; an invalid batch is a programming error.
    public func endUpdates() { endBatch() }

    // MARK: ListViewAdapter

    func dataSourceSectionCount() -> Int { dataSource.map { $0.numberOfSections(in: self) } ?? 0 }
    func dataSourceItemCount(in section: Int) -> Int { dataSource?.tableView(self, numberOfRowsInSection: section) ?? 0 }
    func dataSourceCell(at indexPath: IndexPath) -> ReusableCell? { dataSource?.tableView(self, cellForRowAt: indexPath) }
    func dataSourceTitles(in section: Int) -> (header: String?, footer: String?) {
        guard let dataSource else { return (nil, nil) }
        return (dataSource.tableView(self, titleForHeaderInSection: section), dataSource.tableView(self, titleForFooterInSection: section))
    }
    func layoutItems(section: Int, count: Int, top: Double) -> (tops: [Double], heights: [Double], bottom: Double) {
        var tops: [Double] = [], heights: [Double] = []
        tops.reserveCapacity(count)
        heights.reserveCapacity(count)
        var y = top
        for row in 0..<count {
            let h = delegate?.tableView(self, heightForRowAt: IndexPath(row: row, section: section)) ?? rowHeight
            tops.append(y)
            heights.append(h)
            y += h
        }
        return (tops, heights, y)
    }
    func willDisplay(_ cell: ReusableCell, at indexPath: IndexPath) {
        if let cell = cell as? TableViewCell { delegate?.tableView(self, willDisplay: cell, forRowAt: indexPath) }
    }
    func didEndDisplaying(_ cell: ReusableCell, at indexPath: IndexPath) {
        if let cell = cell as? TableViewCell { delegate?.tableView(self, didEndDisplaying: cell, forRowAt: indexPath) }
    }
    func prefetch(_ indexPaths: [IndexPath]) { prefetchDataSource?.tableView(self, prefetchRowsAt: indexPaths) }
    func cancelPrefetching(_ indexPaths: [IndexPath]) { prefetchDataSource?.tableView(self, cancelPrefetchingForRowsAt: indexPaths) }
    func didSelect(_ indexPath: IndexPath) { delegate?.tableView(self, didSelectRowAt: indexPath) }
    func didDeselect(_ indexPath: IndexPath) { delegate?.tableView(self, didDeselectRowAt: indexPath) }
    func commitDelete(_ indexPath: IndexPath) -> Bool {
        guard let dataSource, dataSource.tableView(self, canEditRowAt: indexPath) else { return false }
        dataSource.tableView(self, commit: .delete, forRowAt: indexPath)
        return true
    }
}

extension TableView: ListViewAdapter {}

/// A section's header or footer title in a rendered table: one line, `Header "Monday"`.
final class SectionTitleView: View {
    let kind: String
    let title: String

    init(kind: String, title: String) {
        self.kind = kind
        self.title = title
        super.init()
    }

    override var renderDescription: String { "\(kind) \"\(title)\"" }
}
