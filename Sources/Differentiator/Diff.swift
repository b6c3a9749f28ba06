import Foundation

/// Computes changesets between lists of sections (RxDataSources' `Diff`).
public enum Diff {
    /// Why two lists cannot be diffed. The payloads are the caller's own values, as found
    /// (`item as! MyItem` works), so the error is only as sendable as they are.
    public enum Error: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
        /// Two rows share an identity: the second row found.
        case duplicateItem(item: Any)
        /// Two sections share an identity: the second section found.
        case duplicateSection(section: Any)
        /// The section type's `init(original:items:)` made `section`, which does not hold
        /// `expectedItems` or does not keep the identity `expectedIdentifier`.
        case invalidInitializerImplementation(section: Any, expectedItems: Any, expectedIdentifier: Any)

        /// What is wrong, with the values involved.
        public var debugDescription: String {
            switch self {
            case .duplicateItem(let item): "Duplicate item \(item)"
            case .duplicateSection(let section): "Duplicate section \(section)"
            case .invalidInitializerImplementation(let section, let items, let identity):
                "init(original:items:) made \(section), which should hold the items \(items) and keep the identity \(identity)"
            }
        }
    }

    /// The changes that turn `initialSections` into `finalSections`, as up to three changesets
    /// to apply in order, one batch update each (RxDataSources' staging):
    ///
    /// 1. deleted sections, deleted rows and updated rows, all at their old positions;
    /// 2. inserted sections (at new indexes) and moved sections;
    /// 3. inserted rows (at new paths) and moved rows.
    ///
    /// Each changeset's ``Changeset/finalSections`` is what the data source shows while that
    /// batch is applied; the last one's are `finalSections`. A stage with nothing to do is left
    /// out, so nothing changed gives `[]`. Staging is what lets a row change and move (it is
    /// reloaded in the first batch and moved in the third), which UIKit refuses in one batch;
    /// each changeset passes HeadlessUI's `BatchUpdate` checks on its own.
    ///
    /// The moves are Differentiator's, changeset for changeset: walking the final sections in
    /// order, a section stays when it is the first old section not yet placed, and every other
    /// surviving section moves; rows likewise within each section, and a row that changes
    /// section always moves. So moving the first of *n* rows to the end moves the *n − 1*
    /// others, as in RxDataSources (``differencesInOneBatch(initialSections:finalSections:)``
    /// moves the fewest rows instead). Row moves are listed in final order, section moves in
    /// old order, as there. Rows going to an inserted section are deleted in the first stage
    /// and arrive with it; rows coming from a deleted section are inserted in the last.
    ///
    /// The work is one hash table of row identities, a few flat arrays, one pass over the old
    /// rows to find the moves, and one equality check per surviving row. Each surviving section
    /// goes through `init(original:items:)`, sharing its rows' storage, so a faulty initializer
    /// is caught; rows are copied only for a section whose rows a stage changes. The function is
    /// inlinable so that it is specialised for the caller's section type.
    ///
    ///     let changesets = try Diff.differencesForSectionedView(initialSections: old, finalSections: new)
    ///     for changeset in changesets {
    ///         dataSource.setSections(changeset.finalSections)
    ///         // one performBatchUpdates with changeset's changes
    ///     }
    ///
    /// ``differencesInOneBatch(initialSections:finalSections:)`` gives the same difference as a
    /// single changeset, with a changed-and-moved row deleted and inserted instead, and the
    /// fewest moves.
    ///
    /// - Parameters:
    ///   - initialSections: The sections before.
    ///   - finalSections: The sections after.
    /// - Returns: The changesets, in the order they are applied.
    /// - Throws: ``Error`` when identities repeat, or when the section type's
    ///   `init(original:items:)` does not keep the items and identity it is given.
    /// - Complexity: O(n) in the number of rows, plus O(m log m) to sort m row moves into final
    ///   order when the pass did not find them in it.
    @inlinable
    public static func differencesForSectionedView<Section: AnimatableSectionModelType>(initialSections: [Section], finalSections: [Section]) throws -> [Changeset<Section>] {
        let oldItems = initialSections.map(\.items)
        let newItems = finalSections.map(\.items)
        let matching = try match(initialSections, finalSections, oldItems: oldItems, newItems: newItems)
        var stages: [Changeset<Section>] = []
        stages.reserveCapacity(3)

        // Stage 1: deletions and updates at old positions. `remaining` holds each surviving old
        // section with the rows it keeps, in their final values, in old order.
        var deletions = Changeset<Section>()
        var remaining: [Section] = []
        remaining.reserveCapacity(initialSections.count)
        for (old, section) in initialSections.enumerated() {
            guard matching.newSectionOfOld[old] >= 0 else {
                deletions.deletedSections.append(old)
                continue
            }
            let items = oldItems[old]
            let start = matching.oldStart[old]
            var kept: [Section.Item]?
            for row in items.indices {
                if matching.isRemoved(start + row) {
                    deletions.deletedItems.append(ItemPath(sectionIndex: old, itemIndex: row))
                    if kept == nil { kept = startCopy(items, upTo: row) }
                    continue
                }
                let target = matching.destination[start + row]
                let final = newItems[target >> 32][target & rowMask]
                if final != items[row] {
                    deletions.updatedItems.append(ItemPath(sectionIndex: old, itemIndex: row))
                    if kept == nil { kept = startCopy(items, upTo: row) }
                    kept!.append(final)
                } else {
                    kept?.append(final)
                }
            }
            // Even an untouched section is rebuilt once, so a faulty initializer is caught
            // whatever changed (it shares the items' storage: no copy).
            remaining.append(try rebuild(section, items: kept ?? items))
        }
        var shown = initialSections
        if !(deletions.deletedSections.isEmpty && deletions.deletedItems.isEmpty && deletions.updatedItems.isEmpty) {
            deletions.originalSections = shown
            deletions.finalSections = remaining
            shown = remaining
            stages.append(deletions)
        }

        // Stage 2: sections inserted and moved. The surviving sections are now numbered in old
        // order; one stays when its new index is above every earlier one's (Differentiator's
        // rule, see below), the others move.
        var sectionMoves = Changeset<Section>()
        var survivor = 0, highest = -1
        for new in matching.newSectionOfOld where new >= 0 {
            if new > highest { highest = new } else { sectionMoves.movedSections.append((survivor, new)) }
            survivor += 1
        }
        for (new, old) in matching.oldSectionOfNew.enumerated() where old < 0 { sectionMoves.insertedSections.append(new) }
        if !(sectionMoves.movedSections.isEmpty && sectionMoves.insertedSections.isEmpty) {
            var placed: [Section] = []
            placed.reserveCapacity(finalSections.count)
            var positionOfOld = [Int](repeating: -1, count: initialSections.count)
            var position = 0
            for old in initialSections.indices where matching.newSectionOfOld[old] >= 0 {
                positionOfOld[old] = position
                position += 1
            }
            for (new, section) in finalSections.enumerated() {
                let old = matching.oldSectionOfNew[new]
                placed.append(old < 0 ? section : try rebuild(section, items: remaining[positionOfOld[old]].items))
            }
            sectionMoves.originalSections = shown
            sectionMoves.finalSections = placed
            shown = placed
            stages.append(sectionMoves)
        }

        // Stage 3: rows inserted and moved, between sections now in their final places.
        // Differentiator walks the final rows in order with a cursor on the first old row of the
        // section not yet placed; a row at the cursor stays, any other moves. Seen from the old
        // side, a row stays exactly when it remains in its section and its new path comes after
        // the new paths of all the rows before it that remain (in any section): one pass, no
        // lookup. Its moves are listed in final order, as Differentiator's are.
        var rowMoves = Changeset<Section>()
        rowMoves.insertedItems = matching.arrivals
        var movesInFinalOrder = true, lastTarget = -1
        for old in initialSections.indices {
            let section = matching.newSectionOfOld[old]
            guard section >= 0 else { continue }
            let start = matching.oldStart[old]
            var position = 0, highest = -1
            for flat in start..<(start + oldItems[old].count) where !matching.isRemoved(flat) {
                let target = matching.destination[flat]
                if target > highest {
                    highest = target
                    if target >> 32 == section {
                        position += 1
                        continue
                    }
                }
                rowMoves.movedItems.append((ItemPath(sectionIndex: section, itemIndex: position), ItemPath(sectionIndex: target >> 32, itemIndex: target & rowMask)))
                movesInFinalOrder = movesInFinalOrder && target > lastTarget
                lastTarget = target
                position += 1
            }
        }
        if !movesInFinalOrder {
            rowMoves.movedItems.sort { ($0.to.sectionIndex, $0.to.itemIndex) < ($1.to.sectionIndex, $1.to.itemIndex) }
        }
        if !(rowMoves.insertedItems.isEmpty && rowMoves.movedItems.isEmpty) {
            rowMoves.originalSections = shown
            rowMoves.finalSections = finalSections
            stages.append(rowMoves)
        }
        return stages
    }

    /// A copy of `items[..<row]` with room for all of `items`.
    @inlinable
    static func startCopy<Item>(_ items: [Item], upTo row: Int) -> [Item] {
        var copy: [Item] = []
        copy.reserveCapacity(items.count)
        copy.append(contentsOf: items[..<row])
        return copy
    }
}
