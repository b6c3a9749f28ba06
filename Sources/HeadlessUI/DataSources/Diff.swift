import Foundation

/// The difference between two lists of sections, in the terms of one UIKit batch update:
/// deletions and updates at old positions, insertions at new positions, moves old → new.
///
/// Rows of deleted sections and of inserted sections are implied and not listed. A row that
/// both changed and moved is listed as deleted and inserted (UIKit cannot move and reload a
/// row in the same batch).
public struct Changeset<Section: SectionModelType> {
    /// Whether the list should simply reload (the first load).
    public var reloadData = false
    /// The sections before.
    public var originalSections: [Section] = []
    /// The sections after.
    public var finalSections: [Section] = []
    /// Sections inserted, at their new indexes.
    public var insertedSections: [Int] = []
    /// Sections deleted, at their old indexes.
    public var deletedSections: [Int] = []
    /// Sections moved, old index to new index.
    public var movedSections: [(from: Int, to: Int)] = []
    /// Sections updated, at their old indexes (always empty: sections are matched by identity only).
    public var updatedSections: [Int] = []
    /// Rows inserted, at their new paths.
    public var insertedItems: [ItemPath] = []
    /// Rows deleted, at their old paths.
    public var deletedItems: [ItemPath] = []
    /// Rows moved, old path to new path.
    public var movedItems: [(from: ItemPath, to: ItemPath)] = []
    /// Rows whose value changed in place, at their old paths.
    public var updatedItems: [ItemPath] = []

    /// Creates an empty changeset.
    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && movedSections.isEmpty && updatedSections.isEmpty
            && insertedItems.isEmpty && deletedItems.isEmpty && movedItems.isEmpty && updatedItems.isEmpty
    }

    /// The same changes as a ``BatchUpdate`` for a list.
    public var batchUpdate: BatchUpdate {
        var batch = BatchUpdate()
        batch.insertedSections = IndexSet(insertedSections)
        batch.deletedSections = IndexSet(deletedSections)
        batch.reloadedSections = IndexSet(updatedSections)
        batch.movedSections = movedSections
        batch.insertedRows = insertedItems.map { IndexPath(indexes: [$0.sectionIndex, $0.itemIndex]) }
        batch.deletedRows = deletedItems.map { IndexPath(indexes: [$0.sectionIndex, $0.itemIndex]) }
        batch.reloadedRows = updatedItems.map { IndexPath(indexes: [$0.sectionIndex, $0.itemIndex]) }
        batch.movedRows = movedItems.map { (IndexPath(indexes: [$0.from.sectionIndex, $0.from.itemIndex]), IndexPath(indexes: [$0.to.sectionIndex, $0.to.itemIndex])) }
        return batch
    }
}

/// Computes changesets between lists of sections (RxDataSources' `Diff`).
public enum Diff {
    /// Why two lists cannot be diffed.
    public enum Error: Swift.Error, CustomDebugStringConvertible {
        /// Two rows share an identity (the row, described).
        case duplicateItem(item: String)
        /// Two sections share an identity (the section, described).
        case duplicateSection(section: String)

        /// What is duplicated.
        public var debugDescription: String {
            switch self {
            case .duplicateItem(let item): "Duplicate item \(item)"
            case .duplicateSection(let section): "Duplicate section \(section)"
            }
        }
    }

    /// The changes that turn `initialSections` into `finalSections`, as one changeset.
    ///
    /// Moves are kept few: within a section, the rows that keep their relative order (a
    /// longest increasing subsequence) stay put and only the others move; likewise for
    /// sections.
    ///
    /// - Parameters:
    ///   - initialSections: The sections before.
    ///   - finalSections: The sections after.
    /// - Returns: One changeset (empty when nothing changed).
    /// - Throws: ``Error`` when identities repeat.
    /// - Complexity: O(n log n) in the number of rows.
    public static func differencesForSectionedView<Section: AnimatableSectionModelType>(initialSections: [Section], finalSections: [Section]) throws -> [Changeset<Section>] {
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
        for (oldSection, section) in initialSections.enumerated() where survivingOldSet.contains(oldSection) {
            for (oldRow, item) in section.items.enumerated() {
                let oldPath = ItemPath(sectionIndex: oldSection, itemIndex: oldRow)
                guard let newPath = newItems[item.identity], survivingNewSet.contains(newPath.sectionIndex) else {
                    changes.deletedItems.append(oldPath)
                    continue
                }
                let unchanged = finalSections[newPath.sectionIndex].items[newPath.itemIndex] == item
                if kept.contains(oldPath) {
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
            if index.updateValue(offset, forKey: section.identity) != nil { throw Error.duplicateSection(section: String(describing: section)) }
        }
        return index
    }

    private static func indexItems<Section: AnimatableSectionModelType>(_ sections: [Section]) throws -> [Section.Item.Identity: ItemPath] {
        var index: [Section.Item.Identity: ItemPath] = [:]
        for (sectionOffset, section) in sections.enumerated() {
            for (itemOffset, item) in section.items.enumerated() {
                if index.updateValue(ItemPath(sectionIndex: sectionOffset, itemIndex: itemOffset), forKey: item.identity) != nil {
                    throw Error.duplicateItem(item: String(describing: item))
                }
            }
        }
        return index
    }
}

/// The positions (in `values`) of one longest strictly increasing subsequence.
///
/// - Complexity: O(n log n).
func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
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
