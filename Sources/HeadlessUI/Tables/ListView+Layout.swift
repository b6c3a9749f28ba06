import Foundation
import Streams

extension ListView {
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
            adapter?.cancelPrefetching(prefetched.sorted())
            prefetched.removeAll()
        }
        indexPathsForSelectedItems.removeAll()
        readCounts()
        isLoaded = true
        setContentOffset(contentOffset)
    }

    func loadIfNeeded() {
        if !isLoaded { reloadData() }
    }

    func readCounts() {
        let sections = (adapter?.dataSourceSectionCount() ?? 0)
        counts = (0..<sections).map { (adapter?.dataSourceItemCount(in: $0) ?? 0) }
        readSectionTitles()
        computeOffsets()
    }

    func readSectionTitles() {
        sectionTitles = (0..<counts.count).map { adapter?.dataSourceTitles(in: $0) ?? (nil, nil) }
    }

    func computeOffsets() {
        var y: Double = 0
        offsets = []
        itemHeights = []
        sectionTops = []
        for (section, count) in counts.enumerated() {
            sectionTops.append(y)
            let layout = adapter?.layoutItems(section: section, count: count, top: y) ?? (tops: [], heights: [], bottom: y)
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

    func setContentOffset(_ offset: Double) {
        let clamped = min(max(0, offset), max(0, contentHeightCache - height))
        let changed = clamped != contentOffset
        contentOffset = clamped
        layoutCells()
        if changed { contentOffsetSubject.onNext(clamped) }
    }

    /// The index paths whose rows intersect the range `top..<bottom`.
    func indexPaths(from top: Double, to bottom: Double) -> [IndexPath] {
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
            adapter?.cancelPrefetching(stale.sorted())
        }
        for indexPath in wanted where visible[indexPath] == nil {
            guard let cell = adapter?.dataSourceCell(at: indexPath) else { continue }
            if let previous = visible.first(where: { $0.value === cell }) {
                HeadlessUIHooks.report("the data source returned the cell already shown at \(previous.key.shortDescription) for \(indexPath.shortDescription)")
                continue
            }
            cell.indexPath = indexPath
            cell.isSelected = indexPathsForSelectedItems.contains(indexPath)
            cell.superview = self
            visible[indexPath] = cell
            adapter?.willDisplay(cell, at: indexPath)
            willDisplaySubject.onNext((cell, indexPath))
        }
        let fresh = window.subtracting(prefetched)
        if !fresh.isEmpty {
            prefetched.formUnion(fresh)
            adapter?.prefetch(fresh.sorted())
        }
    }

    func neighbours(of indexPath: IndexPath, count: Int, forward: Bool) -> [IndexPath] {
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
}
