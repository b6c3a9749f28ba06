import Foundation

/// How an update is animated; headless lists record it and otherwise ignore it.
public enum RowAnimation: Sendable, Equatable {
    /// The system's choice.
    case automatic
    /// Fade.
    case fade
    /// No animation.
    case none
    /// Slide from the left.
    case left
    /// Slide from the right.
    case right
    /// Slide from the top.
    case top
    /// Slide from the bottom.
    case bottom
}

/// An invalid batch of updates: the counts the data source reports after the batch do not
/// match the counts before it plus the inserted and minus the deleted rows, or an index is
/// out of range. UIKit raises `NSInternalInconsistencyException` for these.
public struct BatchUpdateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in UIKit's words.
    public let reason: String

    /// `Invalid update: …`.
    public var description: String { reason }
}

/// The changes recorded by one `performBatchUpdates`: sections and rows inserted (new
/// indexes), deleted and reloaded (old indexes), moved (old → new).
public struct BatchUpdate: Equatable, Sendable {
    /// Sections inserted, at their new indexes.
    public var insertedSections = IndexSet()
    /// Sections deleted, at their old indexes.
    public var deletedSections = IndexSet()
    /// Sections reloaded, at their old indexes.
    public var reloadedSections = IndexSet()
    /// Sections moved, old index to new index.
    public var movedSections: [(from: Int, to: Int)] = []
    /// Rows inserted, at their new index paths.
    public var insertedRows: [IndexPath] = []
    /// Rows deleted, at their old index paths.
    public var deletedRows: [IndexPath] = []
    /// Rows reloaded, at their old index paths.
    public var reloadedRows: [IndexPath] = []
    /// Rows moved, old index path to new index path.
    public var movedRows: [(from: IndexPath, to: IndexPath)] = []

    /// Creates an empty batch.
    public init() {}

    /// Whether the batch changes nothing.
    public var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && reloadedSections.isEmpty && movedSections.isEmpty
            && insertedRows.isEmpty && deletedRows.isEmpty && reloadedRows.isEmpty && movedRows.isEmpty
    }

    /// Compares every recorded change.
    public static func == (lhs: BatchUpdate, rhs: BatchUpdate) -> Bool {
        lhs.insertedSections == rhs.insertedSections && lhs.deletedSections == rhs.deletedSections
            && lhs.reloadedSections == rhs.reloadedSections
            && lhs.movedSections.map { [$0.from, $0.to] } == rhs.movedSections.map { [$0.from, $0.to] }
            && lhs.insertedRows == rhs.insertedRows && lhs.deletedRows == rhs.deletedRows
            && lhs.reloadedRows == rhs.reloadedRows
            && lhs.movedRows.map { [$0.from, $0.to] } == rhs.movedRows.map { [$0.from, $0.to] }
    }
}

/// Where each old section and row lands after a batch; built while validating it.
struct BatchMapping {
    /// New section index for each old section, `nil` when deleted or reloaded.
    var sections: [Int?]
    /// New index path for each old row, `nil` when deleted or reloaded (its cell is replaced).
    var rows: [[IndexPath?]]

    func newIndexPath(for old: IndexPath) -> IndexPath? {
        guard old.section < rows.count, old.row < rows[old.section].count else { return nil }
        return rows[old.section][old.row]
    }
}

extension BatchUpdate {
    /// Checks the batch against the counts before and after it, as UIKit does, and works out
    /// where every surviving row goes.
    func validate(old: [Int], new: [Int]) throws -> BatchMapping {
        func fail(_ reason: String) -> BatchUpdateError { BatchUpdateError(reason: "Invalid update: \(reason)") }
        // Sections.
        for section in deletedSections.union(reloadedSections) where section >= old.count {
            throw fail("attempt to delete or reload section \(section), but there are only \(old.count) sections before the update")
        }
        for section in insertedSections where section >= new.count {
            throw fail("attempt to insert section \(section) but there are only \(new.count) sections after the update")
        }
        let moveSources = movedSections.map(\.from), moveTargets = movedSections.map(\.to)
        guard Set(moveSources).count == moveSources.count, Set(moveTargets).count == moveTargets.count else {
            throw fail("a section is moved more than once")
        }
        for move in movedSections {
            if move.from >= old.count || move.to >= new.count { throw fail("attempt to move section \(move.from) to \(move.to) out of range") }
            if deletedSections.contains(move.from) || reloadedSections.contains(move.from) { throw fail("attempt to move section \(move.from) that is deleted or reloaded") }
            if insertedSections.contains(move.to) { throw fail("attempt to move section \(move.from) to \(move.to), where a section is inserted") }
        }
        let expectedSections = old.count - deletedSections.count + insertedSections.count
        guard expectedSections == new.count else {
            throw fail("invalid number of sections. The number of sections contained in the table view after the update (\(new.count)) must be equal to the number of sections contained in the table view before the update (\(old.count)), plus or minus the number of sections inserted or deleted (\(insertedSections.count) inserted, \(deletedSections.count) deleted).")
        }
        // Old section → new section: moves are fixed, the rest keep their order.
        var sectionMap = [Int?](repeating: nil, count: old.count)
        var newSectionSource = [Int?](repeating: nil, count: new.count)
        for move in movedSections {
            sectionMap[move.from] = move.to
            newSectionSource[move.to] = move.from
        }
        let staying = (0..<old.count).filter { !deletedSections.contains($0) && !moveSources.contains($0) }
        let freeSlots = (0..<new.count).filter { !insertedSections.contains($0) && !moveTargets.contains($0) }
        guard staying.count == freeSlots.count else { throw fail("section moves do not add up") }
        for (source, target) in zip(staying, freeSlots) {
            sectionMap[source] = target
            newSectionSource[target] = source
        }
        // Rows.
        func checkOld(_ path: IndexPath, _ verb: String) throws {
            guard path.count == 2, path.section < old.count, path.row >= 0, path.row < old[path.section] else {
                throw fail("attempt to \(verb) row \(path.count == 2 ? path.row : -1) from section \(path.count == 2 ? path.section : -1) which only contains \(path.count == 2 && path.section < old.count ? old[path.section] : 0) rows before the update")
            }
            if deletedSections.contains(path.section) || reloadedSections.contains(path.section) {
                throw fail("attempt to \(verb) row \(path.row) from section \(path.section), which is itself deleted or reloaded")
            }
        }
        func checkNew(_ path: IndexPath, _ verb: String) throws {
            guard path.count == 2, path.section < new.count, path.row >= 0, path.row < new[path.section] else {
                throw fail("attempt to \(verb) row \(path.count == 2 ? path.row : -1) into section \(path.count == 2 ? path.section : -1), but there are only \(path.count == 2 && path.section < new.count ? new[path.section] : 0) rows in that section after the update")
            }
            if insertedSections.contains(path.section) || newSectionSource[path.section].map({ reloadedSections.contains($0) }) == true {
                throw fail("attempt to \(verb) row \(path.row) into section \(path.section), which is itself inserted or reloaded")
            }
        }
        var touchedOld = Set<IndexPath>(), touchedNew = Set<IndexPath>()
        for path in deletedRows {
            try checkOld(path, "delete")
            guard touchedOld.insert(path).inserted else { throw fail("row \(path.shortDescription) is deleted twice") }
        }
        for move in movedRows {
            try checkOld(move.from, "move")
            try checkNew(move.to, "move")
            guard touchedOld.insert(move.from).inserted else { throw fail("row \(move.from.shortDescription) is both moved and deleted, or moved twice") }
            guard touchedNew.insert(move.to).inserted else { throw fail("two rows are moved to \(move.to.shortDescription)") }
        }
        for path in reloadedRows {
            try checkOld(path, "reload")
            if deletedRows.contains(path) { throw fail("attempt to delete and reload the same index path \(path.shortDescription)") }
        }
        for path in insertedRows {
            try checkNew(path, "insert")
            guard touchedNew.insert(path).inserted else { throw fail("row \(path.shortDescription) is inserted twice, or inserted where a row is moved") }
        }
        var rowMap = old.map { [IndexPath?](repeating: nil, count: $0) }
        for move in movedRows { rowMap[move.from.section][move.from.row] = move.to }
        for (newSection, source) in newSectionSource.enumerated() {
            let inserted = insertedRows.filter { $0.section == newSection }.count
            let movedIn = movedRows.filter { $0.to.section == newSection }.count
            guard let source, !reloadedSections.contains(source) else { continue }
            let deleted = deletedRows.filter { $0.section == source }.count
            let movedOut = movedRows.filter { $0.from.section == source }.count
            let expected = old[source] - deleted - movedOut + inserted + movedIn
            guard expected == new[newSection] else {
                throw fail("invalid number of rows in section \(newSection). The number of rows contained in an existing section after the update (\(new[newSection])) must be equal to the number of rows contained in that section before the update (\(old[source])), plus or minus the number of rows inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of rows moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out).")
            }
            let stayingRows = (0..<old[source]).filter { row in
                let path = IndexPath(row: row, section: source)
                return !touchedOld.contains(path)
            }
            let freeRows = (0..<new[newSection]).filter { !touchedNew.contains(IndexPath(row: $0, section: newSection)) }
            for (row, target) in zip(stayingRows, freeRows) {
                rowMap[source][row] = IndexPath(row: target, section: newSection)
            }
        }
        for path in reloadedRows { rowMap[path.section][path.row] = nil }
        for section in 0..<old.count where sectionMap[section] == nil || reloadedSections.contains(section) {
            rowMap[section] = [IndexPath?](repeating: nil, count: old[section])
        }
        for section in reloadedSections { sectionMap[section] = nil }
        return BatchMapping(sections: sectionMap, rows: rowMap)
    }
}
