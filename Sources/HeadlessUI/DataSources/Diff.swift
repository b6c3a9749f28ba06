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

    /// The type of the sections' items.
    public typealias Item = Section.Item

    /// The change set that shows `sections` from nothing: a reload whose sections are all
    /// inserted (what a table applies for its first sections).
    ///
    /// - Parameter sections: The sections shown.
    /// - Returns: The change set.
    public static func initialValue(_ sections: [Section]) -> Changeset<Section> {
        var changeset = Changeset()
        changeset.reloadData = true
        changeset.finalSections = sections
        changeset.insertedSections = Array(sections.indices)
        return changeset
    }

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
    /// The work is one hash table of row identities, a few flat arrays and one longest-increasing-
    /// subsequence pass per section: at most two hash operations (one for a row that stays at its
    /// index) and one equality check per row, and a
    /// number of allocations that does not grow with the rows (only with the changes). The
    /// function is inlinable so that it is specialised for the caller's section type.
    ///
    /// - Parameters:
    ///   - initialSections: The sections before.
    ///   - finalSections: The sections after.
    /// - Returns: One changeset (empty when nothing changed).
    /// - Throws: ``Error`` when identities repeat.
    /// - Complexity: O(n log n) in the number of rows.
    @inlinable
    public static func differencesForSectionedView<Section: AnimatableSectionModelType>(initialSections: [Section], finalSections: [Section]) throws -> [Changeset<Section>] {
        var changes = Changeset<Section>()
        changes.originalSections = initialSections
        changes.finalSections = finalSections

        // Sections: each side's index of the other side's section, or -1.
        let oldSectionIndex = try indexSections(initialSections)
        let newSectionIndex = try indexSections(finalSections)
        var newSectionOfOld = [Int](repeating: -1, count: initialSections.count)
        for (old, section) in initialSections.enumerated() {
            if let new = newSectionIndex[section.identity] { newSectionOfOld[old] = new }
        }
        var oldSectionOfNew = [Int](repeating: -1, count: finalSections.count)
        for (new, section) in finalSections.enumerated() {
            if let old = oldSectionIndex[section.identity] { oldSectionOfNew[new] = old }
        }
        var survivingOld: [Int] = []
        var targets: [Int] = []
        for old in initialSections.indices {
            if newSectionOfOld[old] >= 0 {
                survivingOld.append(old)
                targets.append(newSectionOfOld[old])
            } else {
                changes.deletedSections.append(old)
            }
        }
        for new in finalSections.indices where oldSectionOfNew[new] < 0 { changes.insertedSections.append(new) }
        var keptSection = [Bool](repeating: false, count: survivingOld.count)
        var scratch = LongestIncreasingScratch()
        scratch.mark(targets, into: &keptSection)
        for (position, old) in survivingOld.enumerated() where !keptSection[position] {
            changes.movedSections.append((old, targets[position]))
        }

        // Rows: every old row's identity → its old position, packed; then every new row looks
        // itself up once, and the old row it matches learns where it went.
        let oldItems = initialSections.map(\.items)
        let newItems = finalSections.map(\.items)
        var oldStart = [Int](repeating: 0, count: oldItems.count)
        var oldCount = 0
        for (section, items) in oldItems.enumerated() {
            oldStart[section] = oldCount
            oldCount += items.count
        }
        var identities = [Section.Item.Identity: Int](minimumCapacity: oldCount)
        for (section, items) in oldItems.enumerated() {
            for (row, item) in items.enumerated() {
                if identities.updateValue(packPath(section, row), forKey: item.identity) != nil {
                    throw Error.duplicateItem(item: String(describing: item))
                }
            }
        }
        /// Where each old row (by flat index) is in the final sections, packed; -1 for none.
        var destination = [Int](repeating: -1, count: oldCount)
        for (section, items) in newItems.enumerated() {
            let oldSection = oldSectionOfNew[section]
            let survives = oldSection >= 0
            let aligned = survives ? oldItems[oldSection] : []
            for (row, item) in items.enumerated() {
                let identity = item.identity
                if row < aligned.count && aligned[row].identity == identity {
                    // The same row at the same place (the common case): no lookup needed. Its
                    // identity is in the table, so a second row with it is still caught.
                    let flat = oldStart[oldSection] + row
                    guard destination[flat] < 0 else { throw Error.duplicateItem(item: String(describing: item)) }
                    destination[flat] = packPath(section, row)
                    continue
                }
                guard let old = identities[identity] else {
                    // Only in the final sections; marked so that a second one is a duplicate.
                    identities[identity] = Self.newOnly
                    if survives { changes.insertedItems.append(ItemPath(sectionIndex: section, itemIndex: row)) }
                    continue
                }
                guard old != Self.newOnly else { throw Error.duplicateItem(item: String(describing: item)) }
                let flat = oldStart[old >> 32] + (old & 0xFFFF_FFFF)
                guard destination[flat] < 0 else { throw Error.duplicateItem(item: String(describing: item)) }
                destination[flat] = packPath(section, row)
                if survives && newSectionOfOld[old >> 32] < 0 {
                    // Its old section is gone: in a surviving new section, it is inserted.
                    changes.insertedItems.append(ItemPath(sectionIndex: section, itemIndex: row))
                }
            }
        }

        // Rows on both sides in the same (surviving) section: those keeping their relative order
        // stay (and are reloaded if changed); the others move.
        var candidateRows: [Int] = []
        var candidateTargets: [Int] = []
        var keptRow: [Bool] = []
        for oldSection in survivingOld {
            let newSection = newSectionOfOld[oldSection]
            let items = oldItems[oldSection]
            let start = oldStart[oldSection]
            candidateRows.removeAll(keepingCapacity: true)
            candidateTargets.removeAll(keepingCapacity: true)
            for row in items.indices {
                let target = destination[start + row]
                if target >= 0 && target >> 32 == newSection {
                    candidateRows.append(row)
                    candidateTargets.append(target & 0xFFFF_FFFF)
                }
            }
            keptRow.removeAll(keepingCapacity: true)
            keptRow.append(contentsOf: repeatElement(false, count: items.count))
            scratch.mark(candidateTargets, rows: candidateRows, into: &keptRow)
            for (row, item) in items.enumerated() {
                let oldPath = ItemPath(sectionIndex: oldSection, itemIndex: row)
                let target = destination[start + row]
                guard target >= 0, oldSectionOfNew[target >> 32] >= 0 else {
                    changes.deletedItems.append(oldPath)
                    continue
                }
                let newPath = ItemPath(sectionIndex: target >> 32, itemIndex: target & 0xFFFF_FFFF)
                let unchanged = newItems[newPath.sectionIndex][newPath.itemIndex] == item
                if keptRow[row] {
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
        if changes.isEmpty { return [] }
        changes.insertedItems.sort { ($0.sectionIndex, $0.itemIndex) < ($1.sectionIndex, $1.itemIndex) }
        changes.deletedItems.sort { ($0.sectionIndex, $0.itemIndex) < ($1.sectionIndex, $1.itemIndex) }
        return [changes]
    }

    /// The value of an identity seen only in the final sections.
    @usableFromInline static var newOnly: Int { -1 }

    /// A section and row in one integer (section in the high 32 bits).
    @inlinable static func packPath(_ section: Int, _ row: Int) -> Int { section << 32 | row }

    @inlinable
    static func indexSections<Section: AnimatableSectionModelType>(_ sections: [Section]) throws -> [Section.Identity: Int] {
        var index: [Section.Identity: Int] = [:]
        for (offset, section) in sections.enumerated() {
            if index.updateValue(offset, forKey: section.identity) != nil { throw Error.duplicateSection(section: String(describing: section)) }
        }
        return index
    }
}

/// Reusable buffers for finding one longest strictly increasing subsequence, so a diff of many
/// sections allocates them once.
@usableFromInline
struct LongestIncreasingScratch {
    /// Positions of the smallest tail for each length.
    @usableFromInline var tails: [Int] = []
    /// For each position, the previous position of the subsequence ending there, or -1.
    @usableFromInline var previous: [Int] = []

    @inlinable init() {}

    /// Sets `kept[p]` for every position `p` of `values` in one longest strictly increasing
    /// subsequence (among several, the one whose last element is the earliest tail of the
    /// greatest length, followed back through its predecessors).
    @inlinable
    mutating func mark(_ values: [Int], into kept: inout [Bool]) {
        var position = run(values)
        while position >= 0 {
            kept[position] = true
            position = previous[position]
        }
    }

    /// The same, for candidates: sets `kept[rows[p]]` for the positions `p` of the subsequence.
    @inlinable
    mutating func mark(_ values: [Int], rows: [Int], into kept: inout [Bool]) {
        var position = run(values)
        while position >= 0 {
            kept[rows[position]] = true
            position = previous[position]
        }
    }

    /// Runs the patience pass over `values`; returns the last position of the subsequence, or -1.
    @inlinable
    mutating func run(_ values: [Int]) -> Int {
        tails.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: repeatElement(-1, count: values.count))
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        return tails.last ?? -1
    }
}

extension Changeset: CustomDebugStringConvertible {
    /// What changed, section and item paths listed by kind, for debugging.
    public var debugDescription: String {
        if reloadData { return "reload \(finalSections.count) sections" }
        var parts: [String] = []
        if !deletedSections.isEmpty { parts.append("deleted sections \(deletedSections)") }
        if !insertedSections.isEmpty { parts.append("inserted sections \(insertedSections)") }
        if !movedSections.isEmpty { parts.append("moved sections \(movedSections.map { "\($0.from)→\($0.to)" })") }
        if !updatedSections.isEmpty { parts.append("updated sections \(updatedSections)") }
        if !deletedItems.isEmpty { parts.append("deleted items \(deletedItems)") }
        if !insertedItems.isEmpty { parts.append("inserted items \(insertedItems)") }
        if !movedItems.isEmpty { parts.append("moved items \(movedItems.map { "\($0.from)→\($0.to)" })") }
        if !updatedItems.isEmpty { parts.append("updated items \(updatedItems)") }
        return parts.isEmpty ? "no changes" : parts.joined(separator: "; ")
    }
}
