import Foundation
import Streams

extension ListView {
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
        let newCounts = (0..<(adapter?.dataSourceSectionCount() ?? 0)).map { (adapter?.dataSourceItemCount(in: $0) ?? 0) }
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
        readSectionTitles()
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
            adapter?.cancelPrefetching(prefetched.sorted())
            prefetched.removeAll()
        }
        setContentOffset(contentOffset)
    }

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
}
