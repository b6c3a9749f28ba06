import Foundation

/// One step of the difference between two lists of sections, in the terms of one UIKit batch
/// update: deletions and updates at old positions, insertions at new positions, moves old → new
/// (RxDataSources' `Changeset`).
///
/// ``Diff/differencesForSectionedView(initialSections:finalSections:)`` returns up to three of
/// them, applied one batch each, in order; ``finalSections`` is what the data source shows
/// after each. Rows of deleted sections and of inserted sections are implied and not listed.
public struct Changeset<Section: SectionModelType> {
    /// Whether the list should simply reload (the first load).
    public var reloadData = false
    /// The sections before this step (empty when the producer did not keep them).
    public var originalSections: [Section] = []
    /// The sections after this step: what the data source shows while the step is applied.
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

extension Changeset {
    /// The change set of a one-section list from its ``ListDifference``, as it is: deleted and
    /// reloaded rows at their previous positions, inserted rows at their new ones, moves from
    /// one to the other.
    ///
    ///     difference: deletions [1], insertions [2], updates [(old: 3, new: 2)]
    ///     changeset:  deleted items [0-1], inserted items [0-2], updated items [0-3]
    ///
    /// ``originalSections`` stays empty (a difference does not keep the previous list).
    ///
    /// - Parameters:
    ///   - section: The section after the change.
    ///   - difference: How its items changed.
    public init(section: Section, difference: ListDifference) {
        self.init()
        finalSections = [section]
        deletedItems = difference.deletions.map { ItemPath(sectionIndex: 0, itemIndex: $0) }
        insertedItems = difference.insertions.map { ItemPath(sectionIndex: 0, itemIndex: $0) }
        updatedItems = difference.updates.map { ItemPath(sectionIndex: 0, itemIndex: $0.old) }
        movedItems = difference.moves.map { (ItemPath(sectionIndex: 0, itemIndex: $0.from), ItemPath(sectionIndex: 0, itemIndex: $0.to)) }
    }
}
