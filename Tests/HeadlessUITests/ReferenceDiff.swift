import Foundation
import HeadlessUI

/// The one-batch diff as it was before it was rebuilt for speed (issue 18), kept as the oracle:
/// `Diff.differencesInOneBatch` must produce exactly its change set, field by field. (Since
/// issue 27, a changed row of a moved section is replaced, not reloaded: UIKit refuses a reload
/// in a moved section.)
enum ReferenceDiff {
    static func differences<Section: AnimatableSectionModelType>(initialSections: [Section], finalSections: [Section]) throws -> [Changeset<Section>] {
        var changes = Changeset<Section>()
        changes.originalSections = initialSections
        changes.finalSections = finalSections

        let oldSectionIndex = try indexSections(initialSections)
        let newSectionIndex = try indexSections(finalSections)
        let oldItems = try indexItems(initialSections)
        let newItems = try indexItems(finalSections)

        // Sections.
        changes.deletedSections = initialSections.indices.filter { newSectionIndex[initialSections[$0].identity] == nil }
        changes.insertedSections = finalSections.indices.filter { oldSectionIndex[finalSections[$0].identity] == nil }
        let survivingOld = initialSections.indices.filter { newSectionIndex[initialSections[$0].identity] != nil }
        let targets = survivingOld.map { newSectionIndex[initialSections[$0].identity]! }
        let keptSections = Set(longestIncreasingSubsequence(targets).map { survivingOld[$0] })
        for (old, new) in zip(survivingOld, targets) where !keptSections.contains(old) {
            changes.movedSections.append((old, new))
        }
        let survivingOldSet = Set(survivingOld)
        let survivingNewSet = Set(finalSections.indices.filter { oldSectionIndex[finalSections[$0].identity] != nil })

        // Rows on both sides in the same (surviving) section: those keeping their relative order
        // stay (and are reloaded if changed); the others move.
        var kept = Set<ItemPath>()
        for (oldSection, section) in initialSections.enumerated() where survivingOldSet.contains(oldSection) {
            let newSection = newSectionIndex[section.identity]!
            var candidates: [(oldRow: Int, newRow: Int)] = []
            for (oldRow, item) in section.items.enumerated() {
                if let newPath = newItems[item.identity], newPath.sectionIndex == newSection {
                    candidates.append((oldRow, newPath.itemIndex))
                }
            }
            for position in longestIncreasingSubsequence(candidates.map(\.newRow)) {
                kept.insert(ItemPath(sectionIndex: oldSection, itemIndex: candidates[position].oldRow))
            }
        }
        let movedSections = Set(changes.movedSections.map(\.from))
        for (oldSection, section) in initialSections.enumerated() where survivingOldSet.contains(oldSection) {
            for (oldRow, item) in section.items.enumerated() {
                let oldPath = ItemPath(sectionIndex: oldSection, itemIndex: oldRow)
                guard let newPath = newItems[item.identity], survivingNewSet.contains(newPath.sectionIndex) else {
                    changes.deletedItems.append(oldPath)
                    continue
                }
                let unchanged = finalSections[newPath.sectionIndex].items[newPath.itemIndex] == item
                if kept.contains(oldPath) && (unchanged || !movedSections.contains(oldSection)) {
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
        for (newSection, section) in finalSections.enumerated() where survivingNewSet.contains(newSection) {
            for (newRow, item) in section.items.enumerated() {
                if let oldPath = oldItems[item.identity], survivingOldSet.contains(oldPath.sectionIndex) { continue }
                changes.insertedItems.append(ItemPath(sectionIndex: newSection, itemIndex: newRow))
            }
        }
        if changes.isEmpty { return [] }
        changes.insertedItems.sort { ($0.sectionIndex, $0.itemIndex) < ($1.sectionIndex, $1.itemIndex) }
        changes.deletedItems.sort { ($0.sectionIndex, $0.itemIndex) < ($1.sectionIndex, $1.itemIndex) }
        return [changes]
    }

    private static func indexSections<Section: AnimatableSectionModelType>(_ sections: [Section]) throws -> [Section.Identity: Int] {
        var index: [Section.Identity: Int] = [:]
        for (offset, section) in sections.enumerated() {
            if index.updateValue(offset, forKey: section.identity) != nil { throw Diff.Error.duplicateSection(section: section) }
        }
        return index
    }

    private static func indexItems<Section: AnimatableSectionModelType>(_ sections: [Section]) throws -> [Section.Item.Identity: ItemPath] {
        var index: [Section.Item.Identity: ItemPath] = [:]
        for (sectionOffset, section) in sections.enumerated() {
            for (itemOffset, item) in section.items.enumerated() {
                if index.updateValue(ItemPath(sectionIndex: sectionOffset, itemIndex: itemOffset), forKey: item.identity) != nil {
                    throw Diff.Error.duplicateItem(item: item)
                }
            }
        }
        return index
    }

    /// The positions (in `values`) of one longest strictly increasing subsequence.
    ///
    /// - Complexity: O(n log n).
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
        var tails: [Int] = [] // positions of the smallest tail for each length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            result.append(position)
            position = previous[position]
        }
        return result.reversed()
    }
}
