import Foundation
import Streams

/// The machinery shared by ``TableView`` and ``CollectionView``: a vertical viewport over
/// sections of items, reusable cells, batch updates, selection and prefetching.
///
/// Lists lay out at once (on `reloadData`, a batch, a scroll or a size change), so what
/// `cellForRow(at:)` and ``View/render()`` show is always current.
open class ListView: View {
    /// The viewport's height.
    public var height: Double {
        didSet { layoutCells() }
    }
    /// How far the content is scrolled (the top of the viewport in content coordinates).
    public private(set) var contentOffset: Double = 0
    /// Rows beyond each edge of the viewport announced to the prefetching data source.
    public var prefetchDistance = 0 {
        didSet { layoutCells() }
    }
    /// Whether rows can be selected by a tap.
    public var allowsSelection = true
    /// The index paths of the selected rows.
    public private(set) var indexPathsForSelectedItems: [IndexPath] = []
    /// How many batch updates ran (a change set applied "as one batch" counts one).
    public private(set) var batchUpdateCount = 0
    /// The last batch applied, for tests.
    public private(set) var lastBatchUpdate: BatchUpdate?
    /// How many times the data was reloaded (``reloadData()``).
    public private(set) var reloadCount = 0

    private var registrations: [String: ReusableCell.Type] = [:]
    private var reusePool: [String: [ReusableCell]] = [:]
    private var visible: [IndexPath: ReusableCell] = [:]
    private var prefetched: Set<IndexPath> = []
    private var counts: [Int] = []
    private var offsets: [[Double]] = []
    private var itemHeights: [[Double]] = []
    private var contentHeightCache: Double = 0
    private var pendingBatch: BatchUpdate?
    private var isLoaded = false

    let itemSelectedSubject = PublishSubject<IndexPath>()
    let itemDeselectedSubject = PublishSubject<IndexPath>()
    let itemDeletedSubject = PublishSubject<IndexPath>()
    let willDisplaySubject = PublishSubject<(ReusableCell, IndexPath)>()
    let didEndDisplayingSubject = PublishSubject<(ReusableCell, IndexPath)>()
    let contentOffsetSubject = PublishSubject<Double>()

    /// Creates an empty list.
    ///
    /// - Parameter height: The viewport's height.
    public init(height: Double) {
        self.height = height
        super.init()
    }

    deinit {
        for subject in [itemSelectedSubject, itemDeselectedSubject, itemDeletedSubject] { subject.onCompleted() }
        willDisplaySubject.onCompleted()
        didEndDisplayingSubject.onCompleted()
        contentOffsetSubject.onCompleted()
    }

    // MARK: Hooks for TableView and CollectionView

    func dataSourceSectionCount() -> Int { 0 }
    func dataSourceItemCount(in section: Int) -> Int { 0 }
    func dataSourceCell(at indexPath: IndexPath) -> ReusableCell? { nil }
    func layoutItems(section: Int, count: Int, top: Double) -> (tops: [Double], heights: [Double], bottom: Double) { ([], [], top) }
    func willDisplay(_ cell: ReusableCell, at indexPath: IndexPath) {}
    func didEndDisplaying(_ cell: ReusableCell, at indexPath: IndexPath) {}
    func prefetch(_ indexPaths: [IndexPath]) {}
    func cancelPrefetching(_ indexPaths: [IndexPath]) {}
    func didSelect(_ indexPath: IndexPath) {}
    func didDeselect(_ indexPath: IndexPath) {}
    func commitDelete(_ indexPath: IndexPath) -> Bool { false }
    func describeList() -> String { typeName }
    var itemNoun: String { "row" }

    // MARK: Registration and reuse

    func registerCell(_ cellClass: ReusableCell.Type, identifier: String) {
        registrations[identifier] = cellClass
    }

    func dequeueCell(identifier: String, for indexPath: IndexPath) -> ReusableCell? {
        if var pool = reusePool[identifier], let cell = pool.popLast() {
            reusePool[identifier] = pool
            return cell
        }
        guard let cellClass = registrations[identifier] else {
            HeadlessUIHooks.report("unable to dequeue a cell with identifier \(identifier) - must register a class for the identifier")
            return nil
        }
        return cellClass.init(reuseIdentifier: identifier)
    }

    /// The cells shown, in index-path order.
    public var visibleReusableCells: [ReusableCell] {
        visible.keys.sorted().map { visible[$0]! }
    }

    /// The index paths of the visible rows, sorted.
    public var indexPathsForVisibleItems: [IndexPath] { visible.keys.sorted() }

    /// The number of cells waiting in the reuse pools.
    public var reusePoolCount: Int { reusePool.values.reduce(0) { $0 + $1.count } }

    /// The number of distinct cell objects created so far (visible plus pooled).
    public var cellCount: Int { visible.count + reusePoolCount }

    func reusableCell(at indexPath: IndexPath) -> ReusableCell? {
        visible[indexPath]
    }

    // MARK: Data

    /// The number of sections, as last read from the data source.
    public var numberOfSections: Int {
        loadIfNeeded()
        return counts.count
    }

    func itemCount(in section: Int) -> Int {
        loadIfNeeded()
        return section < counts.count ? counts[section] : 0
    }

    /// Reads everything again from the data source and redisplays the visible rows.
    public func reloadData() {
        reloadCount += 1
        for (indexPath, cell) in visible { enqueue(cell, from: indexPath) }
        visible.removeAll()
        if !prefetched.isEmpty {
            cancelPrefetching(prefetched.sorted())
            prefetched.removeAll()
        }
        indexPathsForSelectedItems.removeAll()
        readCounts()
        isLoaded = true
        setContentOffset(contentOffset)
    }

    private func loadIfNeeded() {
        if !isLoaded { reloadData() }
    }

    private func readCounts() {
        let sections = dataSourceSectionCount()
        counts = (0..<sections).map { dataSourceItemCount(in: $0) }
        computeOffsets()
    }

    private func computeOffsets() {
        var y: Double = 0
        offsets = []
        itemHeights = []
        for (section, count) in counts.enumerated() {
            let layout = layoutItems(section: section, count: count, top: y)
            offsets.append(layout.tops)
            itemHeights.append(layout.heights)
            y = layout.bottom
        }
        contentHeightCache = y
    }

    /// The height of all the rows.
    public var contentHeight: Double {
        loadIfNeeded()
        return contentHeightCache
    }

    /// The top of the row at `indexPath` in content coordinates.
    ///
    /// - Parameter indexPath: A row.
    /// - Returns: Its top, or `nil` when there is no such row.
    public func offset(of indexPath: IndexPath) -> Double? {
        loadIfNeeded()
        guard indexPath.count == 2, indexPath[0] < offsets.count, indexPath[1] >= 0, indexPath[1] < offsets[indexPath[0]].count else { return nil }
        return offsets[indexPath[0]][indexPath[1]]
    }

    // MARK: Scrolling

    /// Scrolls so that the viewport starts at `offset`, clamped to the content.
    ///
    /// - Parameter offset: The new top of the viewport.
    public func scroll(to offset: Double) {
        loadIfNeeded()
        setContentOffset(offset)
    }

    /// Scrolls by `delta` points (positive is down).
    ///
    /// - Parameter delta: The distance.
    public func scroll(by delta: Double) {
        scroll(to: contentOffset + delta)
    }

    /// The largest offset: the content's height minus the viewport's.
    public var maximumContentOffset: Double { max(0, contentHeight - height) }

    private func setContentOffset(_ offset: Double) {
        let clamped = min(max(0, offset), max(0, contentHeightCache - height))
        let changed = clamped != contentOffset
        contentOffset = clamped
        layoutCells()
        if changed { contentOffsetSubject.onNext(clamped) }
    }

    /// The index paths whose rows intersect the range `top..<bottom`.
    private func indexPaths(from top: Double, to bottom: Double) -> [IndexPath] {
        var result: [IndexPath] = []
        guard bottom > top else { return result }
        for section in 0..<offsets.count {
            let sectionOffsets = offsets[section]
            let heights = itemHeights[section]
            guard let first = sectionOffsets.first, first < bottom else { continue }
            // Binary search for the first row whose bottom is below `top`.
            var low = 0, high = sectionOffsets.count
            while low < high {
                let mid = (low + high) / 2
                if sectionOffsets[mid] + heights[mid] <= top { low = mid + 1 } else { high = mid }
            }
            var row = low
            while row < sectionOffsets.count, sectionOffsets[row] < bottom {
                if heights[row] > 0 { result.append(IndexPath(indexes: [section, row])) }
                row += 1
            }
        }
        return result
    }

    func layoutCells() {
        guard isLoaded else { return }
        let wanted = indexPaths(from: contentOffset, to: contentOffset + height)
        let wantedSet = Set(wanted)
        for (indexPath, cell) in visible where !wantedSet.contains(indexPath) {
            visible[indexPath] = nil
            enqueue(cell, from: indexPath)
        }
        // Prefetch window: rows within `prefetchDistance` of the viewport, not visible.
        var window = Set<IndexPath>()
        if prefetchDistance > 0, let first = wanted.first, let last = wanted.last {
            window.formUnion(neighbours(of: first, count: prefetchDistance, forward: false))
            window.formUnion(neighbours(of: last, count: prefetchDistance, forward: true))
            window.subtract(wantedSet)
        }
        let stale = prefetched.subtracting(window)
        if !stale.isEmpty {
            prefetched.subtract(stale)
            cancelPrefetching(stale.sorted())
        }
        for indexPath in wanted where visible[indexPath] == nil {
            guard let cell = dataSourceCell(at: indexPath) else { continue }
            if let previous = visible.first(where: { $0.value === cell }) {
                HeadlessUIHooks.report("the data source returned the cell already shown at \(previous.key.shortDescription) for \(indexPath.shortDescription)")
                continue
            }
            cell.indexPath = indexPath
            cell.isSelected = indexPathsForSelectedItems.contains(indexPath)
            cell.superview = self
            visible[indexPath] = cell
            willDisplay(cell, at: indexPath)
            willDisplaySubject.onNext((cell, indexPath))
        }
        let fresh = window.subtracting(prefetched)
        if !fresh.isEmpty {
            prefetched.formUnion(fresh)
            prefetch(fresh.sorted())
        }
    }

    private func neighbours(of indexPath: IndexPath, count: Int, forward: Bool) -> [IndexPath] {
        var result: [IndexPath] = []
        var section = indexPath[0], row = indexPath[1]
        while result.count < count {
            if forward {
                row += 1
                while section < counts.count, row >= counts[section] {
                    section += 1
                    row = 0
                }
                if section >= counts.count { break }
            } else {
                row -= 1
                while row < 0 {
                    section -= 1
                    if section < 0 { break }
                    row = counts[section] - 1
                }
                if section < 0 { break }
            }
            result.append(IndexPath(indexes: [section, row]))
        }
        return result
    }

    private func enqueue(_ cell: ReusableCell, from indexPath: IndexPath) {
        cell.indexPath = nil
        cell.superview = nil
        cell.isSelected = false
        didEndDisplaying(cell, at: indexPath)
        didEndDisplayingSubject.onNext((cell, indexPath))
        cell.prepareForReuse()
        reusePool[cell.reuseIdentifier ?? "", default: []].append(cell)
    }

    // MARK: Batch updates

    /// Applies the insertions, deletions, moves and reloads recorded by `updates` as one
    /// batch, after checking them against the data source's counts as UIKit does.
    ///
    /// Call the `insert…`/`delete…`/`move…`/`reload…` methods inside `updates`, after
    /// changing the data the data source reads.
    ///
    /// - Parameters:
    ///   - updates: Records the changes.
    ///   - completion: Called with `true` after a valid batch.
    /// - Throws: ``BatchUpdateError`` when the counts or indexes do not add up; the list then
    ///   reloads its data so it matches the data source again.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) throws {
        loadIfNeeded()
        if pendingBatch != nil {
            // A nested batch joins the outer one.
            updates?()
            return
        }
        pendingBatch = BatchUpdate()
        updates?()
        let batch = pendingBatch!
        pendingBatch = nil
        try apply(batch)
        completion?(true)
    }

    func apply(_ batch: BatchUpdate) throws {
        let oldCounts = counts
        let newCounts = (0..<dataSourceSectionCount()).map { dataSourceItemCount(in: $0) }
        let mapping: BatchMapping
        do {
            mapping = try batch.validate(old: oldCounts, new: newCounts)
        } catch {
            reloadData()
            throw error
        }
        batchUpdateCount += 1
        lastBatchUpdate = batch
        counts = newCounts
        computeOffsets()
        var moved: [IndexPath: ReusableCell] = [:]
        for (indexPath, cell) in visible {
            if let target = mapping.newIndexPath(for: indexPath) {
                moved[target] = cell
                cell.indexPath = target
            } else {
                enqueue(cell, from: indexPath)
            }
        }
        visible = moved
        indexPathsForSelectedItems = indexPathsForSelectedItems.compactMap { mapping.newIndexPath(for: $0) }
        if !prefetched.isEmpty {
            cancelPrefetching(prefetched.sorted())
            prefetched.removeAll()
        }
        setContentOffset(contentOffset)
    }

    private var batchDepth = 0

    func beginBatch() {
        loadIfNeeded()
        if pendingBatch == nil { pendingBatch = BatchUpdate() }
        batchDepth += 1
    }

    func endBatch() {
        guard batchDepth > 0 else { return }
        batchDepth -= 1
        guard batchDepth == 0, let batch = pendingBatch else { return }
        pendingBatch = nil
        do {
            try apply(batch)
        } catch {
            HeadlessUIHooks.report("\(error)")
        }
    }

    func record(_ change: (inout BatchUpdate) -> Void) {
        if pendingBatch != nil {
            change(&pendingBatch!)
            return
        }
        var batch = BatchUpdate()
        change(&batch)
        do {
            loadIfNeeded()
            try apply(batch)
        } catch {
            HeadlessUIHooks.report("\(error)")
        }
    }

    // MARK: Selection and editing

    func selectByTap(at indexPath: IndexPath) -> Bool {
        guard allowsSelection, isInteractive, let cell = visible[indexPath], cell.isUserInteractionEnabled else { return false }
        if !indexPathsForSelectedItems.contains(indexPath) { indexPathsForSelectedItems.append(indexPath) }
        cell.isSelected = true
        didSelect(indexPath)
        itemSelectedSubject.onNext(indexPath)
        return true
    }

    func deselectItem(at indexPath: IndexPath, notify: Bool) {
        guard let index = indexPathsForSelectedItems.firstIndex(of: indexPath) else { return }
        indexPathsForSelectedItems.remove(at: index)
        visible[indexPath]?.isSelected = false
        if notify {
            didDeselect(indexPath)
            itemDeselectedSubject.onNext(indexPath)
        }
    }

    func swipeToDelete(at indexPath: IndexPath) -> Bool {
        guard isInteractive, visible[indexPath] != nil, commitDelete(indexPath) else { return false }
        itemDeletedSubject.onNext(indexPath)
        return true
    }

    // MARK: Rendering

    /// `TableView 1000 rows, offset 132` and the visible cells.
    open override var renderDescription: String {
        loadIfNeeded()
        let total = counts.reduce(0, +)
        let sections = counts.count <= 1 ? "" : " in \(counts.count) sections"
        return "\(describeList()) \(total) \(total == 1 ? itemNoun : itemNoun + "s")\(sections), offset \(formatFraction(contentOffset))\(accessibilitySuffix)"
    }

    /// The background view, then the visible cells in order.
    open override var renderedChildren: [View] {
        loadIfNeeded()
        var children: [View] = []
        if let backgroundView { children.append(backgroundView) }
        return children + subviews + visibleReusableCells
    }
}
