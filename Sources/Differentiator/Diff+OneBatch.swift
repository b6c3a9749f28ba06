extension Diff {
    /// The changes that turn `initialSections` into `finalSections` as one changeset, for one
    /// batch update: deleted and updated rows at old positions, inserted rows at new ones,
    /// moves old → new, sections likewise.
    ///
    /// UIKit cannot reload and move a row, nor reload a row of a moved section, in one batch,
    /// so a row that changed and moved is listed as deleted and inserted (it is not animated as
    /// a move), and a changed row of a moved section likewise. Moves are kept few: the rows
    /// of a section that keep their relative order (a longest increasing subsequence) stay and
    /// only the others move, likewise for sections, where
    /// ``differencesForSectionedView(initialSections:finalSections:)`` moves as RxDataSources
    /// does (its staged changesets are what RxDataSources' data sources and tests expect). Use
    /// this form where one batch, or the fewest moves, matters more than that.
    ///
    /// - Parameters:
    ///   - initialSections: The sections before.
    ///   - finalSections: The sections after.
    /// - Returns: The changeset, or `nil` when nothing changed.
    /// - Throws: ``Error/duplicateItem(item:)`` or ``Error/duplicateSection(section:)`` when
    ///   identities repeat (no section is rebuilt, so the initializer is not checked).
    /// - Complexity: O(n log n) in the number of rows.
    @inlinable
    public static func differencesInOneBatch<Section: AnimatableSectionModelType>(initialSections: [Section], finalSections: [Section]) throws -> Changeset<Section>? {
        let oldItems = initialSections.map(\.items)
        let newItems = finalSections.map(\.items)
        let matching = try match(initialSections, finalSections, oldItems: oldItems, newItems: newItems)
        var changes = Changeset<Section>()
        changes.originalSections = initialSections
        changes.finalSections = finalSections
        changes.insertedItems = matching.arrivals

        var survivingOld: [Int] = []
        var targets: [Int] = []
        for old in initialSections.indices {
            if matching.newSectionOfOld[old] >= 0 {
                survivingOld.append(old)
                targets.append(matching.newSectionOfOld[old])
            } else {
                changes.deletedSections.append(old)
            }
        }
        for (new, old) in matching.oldSectionOfNew.enumerated() where old < 0 { changes.insertedSections.append(new) }
        var keptSection = [Bool](repeating: false, count: survivingOld.count)
        var scratch = LongestIncreasingScratch()
        scratch.mark(targets, into: &keptSection)
        var sectionMoves = Set<Int>()
        for (position, old) in survivingOld.enumerated() where !keptSection[position] {
            changes.movedSections.append((old, targets[position]))
            sectionMoves.insert(old)
        }

        // Rows on both sides in the same (surviving) section: those keeping their relative order
        // stay (and are reloaded if changed, unless their section moves); the others move.
        var candidateRows: [Int] = []
        var candidateTargets: [Int] = []
        var keptRow: [Bool] = []
        for oldSection in survivingOld {
            let newSection = matching.newSectionOfOld[oldSection]
            let items = oldItems[oldSection]
            let start = matching.oldStart[oldSection]
            candidateRows.removeAll(keepingCapacity: true)
            candidateTargets.removeAll(keepingCapacity: true)
            for row in items.indices {
                let target = matching.destination[start + row]
                if target >= 0 && target >> 32 == newSection {
                    candidateRows.append(row)
                    candidateTargets.append(target & rowMask)
                }
            }
            keptRow.removeAll(keepingCapacity: true)
            keptRow.append(contentsOf: repeatElement(false, count: items.count))
            scratch.mark(candidateTargets, rows: candidateRows, into: &keptRow)
            let sectionMoved = sectionMoves.contains(oldSection)
            for (row, item) in items.enumerated() {
                let oldPath = ItemPath(sectionIndex: oldSection, itemIndex: row)
                guard !matching.isRemoved(start + row) else {
                    changes.deletedItems.append(oldPath)
                    continue
                }
                let target = matching.destination[start + row]
                let newPath = ItemPath(sectionIndex: target >> 32, itemIndex: target & rowMask)
                let unchanged = newItems[newPath.sectionIndex][newPath.itemIndex] == item
                if keptRow[row] && (unchanged || !sectionMoved) {
                    if !unchanged { changes.updatedItems.append(oldPath) }
                } else if unchanged {
                    changes.movedItems.append((oldPath, newPath))
                } else {
                    // UIKit cannot move and reload one row in a batch: replace it instead.
                    changes.deletedItems.append(oldPath)
                    changes.insertedItems.append(newPath)
                }
            }
        }
        if changes.isEmpty { return nil }
        changes.insertedItems.sort { ($0.sectionIndex, $0.itemIndex) < ($1.sectionIndex, $1.itemIndex) }
        changes.deletedItems.sort { ($0.sectionIndex, $0.itemIndex) < ($1.sectionIndex, $1.itemIndex) }
        return changes
    }
}
