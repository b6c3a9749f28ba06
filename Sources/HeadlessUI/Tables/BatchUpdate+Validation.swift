import Foundation

/// Where each old section and row lands after a batch; built while validating it.
struct BatchMapping {
    /// New section index for each old section, `nil` when deleted or reloaded.
    var sections: [Int?]
    /// New index path for each old row, `nil` when deleted or reloaded (its cell is replaced).
    var rows: [[IndexPath?]]

    func newIndexPath(for old: IndexPath) -> IndexPath? {
        guard old.count == 2, old.section >= 0, old.row >= 0, old.section < rows.count, old.row < rows[old.section].count else { return nil }
        return rows[old.section][old.row]
    }
}

extension IndexPath {
    /// `{length = 2, path = 0 - 1}`, as UIKit prints an index path in its exceptions.
    var uiKitDescription: String { "{length = \(count), path = \(map(String.init).joined(separator: " - "))}" }
}

extension BatchUpdate {
    /// Checks the batch against the counts before and after it, rule by rule as UIKit does
    /// (``BatchUpdateError/Rule``), and works out where every surviving row goes.
    ///
    /// - Parameters:
    ///   - old: The row count of each section before the update.
    ///   - new: The row count of each section the data source reports after it.
    func validate(old: [Int], new: [Int]) throws -> BatchMapping {
        func fail(_ rule: BatchUpdateError.Rule, _ reason: String) -> BatchUpdateError {
            BatchUpdateError(rule: rule, reason: "Invalid update: \(reason)")
        }
        // Sections: ranges, then one animation per section, then the count.
        for section in deletedSections where section >= old.count {
            throw fail(.sectionOutOfRangeBefore, "attempt to delete section \(section), but there are only \(old.count) sections before the update")
        }
        for section in reloadedSections where section >= old.count {
            throw fail(.sectionOutOfRangeBefore, "attempt to reload section \(section), but there are only \(old.count) sections before the update")
        }
        for section in insertedSections where section >= new.count {
            throw fail(.sectionOutOfRangeAfter, "attempt to insert section \(section) but there are only \(new.count) sections after the update")
        }
        for move in movedSections {
            if move.from < 0 || move.from >= old.count {
                throw fail(.sectionOutOfRangeBefore, "attempt to move section \(move.from), but there are only \(old.count) sections before the update")
            }
            if move.to < 0 || move.to >= new.count {
                throw fail(.sectionOutOfRangeAfter, "attempt to move section \(move.from) to section \(move.to), but there are only \(new.count) sections after the update")
            }
        }
        if let section = deletedSections.intersection(reloadedSections).first {
            throw fail(.deleteAndReloadSameSection, "attempt to delete and reload the same section (\(section))")
        }
        var moveSources = Set<Int>(), moveTargets = Set<Int>()
        for move in movedSections {
            guard moveSources.insert(move.from).inserted else { throw fail(.twoMovesFromOneSection, "attempt to move section \(move.from) more than once") }
            guard moveTargets.insert(move.to).inserted else { throw fail(.twoMovesToOneSection, "attempt to move two sections to section \(move.to)") }
            if deletedSections.contains(move.from) {
                throw fail(.deleteAndMoveSameSection, "attempt to perform a delete and a move from the same section (\(move.from))")
            }
            if reloadedSections.contains(move.from) {
                throw fail(.reloadAndMoveSameSection, "attempt to create two animations for cell (section \(move.from) is reloaded and moved to \(move.to))")
            }
            if insertedSections.contains(move.to) {
                throw fail(.insertAndMoveSameSection, "attempt to perform an insert and a move to the same section (\(move.to))")
            }
        }
        let expectedSections = old.count - deletedSections.count + insertedSections.count
        guard expectedSections == new.count else {
            throw fail(.invalidNumberOfSections, "invalid number of sections. The number of sections contained in the table view after the update (\(new.count)) must be equal to the number of sections contained in the table view before the update (\(old.count)), plus or minus the number of sections inserted or deleted (\(insertedSections.count) inserted, \(deletedSections.count) deleted).")
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
        for (source, target) in zip(staying, freeSlots) {
            sectionMap[source] = target
            newSectionSource[target] = source
        }

        // Rows: each path is a section and a row in range, in a section it may touch.
        func checkPath(_ path: IndexPath) throws {
            guard path.count == 2, path.section >= 0, path.row >= 0 else {
                throw fail(.invalidIndexPath, "Attempted to perform update with invalid index path: \(path.uiKitDescription)")
            }
        }
        func checkOld(_ path: IndexPath, _ verb: String) throws {
            try checkPath(path)
            guard path.section < old.count else {
                throw fail(.rowOutOfRangeBefore, "attempt to \(verb) row \(path.row) from section \(path.section), but there are only \(old.count) sections before the update")
            }
            guard path.row < old[path.section] else {
                if verb == "move" {
                    throw fail(.rowOutOfRangeBefore, "attempt to move index path (\(path.uiKitDescription)) that does not exist - there are only \(old[path.section]) rows in section \(path.section) before the update")
                }
                throw fail(.rowOutOfRangeBefore, "attempt to \(verb) row \(path.row) from section \(path.section) which only contains \(old[path.section]) rows before the update")
            }
            if deletedSections.contains(path.section) {
                if verb == "move" { throw fail(.moveFromDeletedSection, "cannot move a row from a deleted section (\(path.section))") }
                throw fail(.rowInDeletedSection, "attempt to \(verb) row \(path.row) from section \(path.section), which is deleted in the same update")
            }
            if reloadedSections.contains(path.section) {
                throw fail(.rowInReloadedSection, "attempt to \(verb) row \(path.row) from section \(path.section), which is reloaded in the same update")
            }
        }
        func checkNew(_ path: IndexPath, _ verb: String, from source: IndexPath? = nil) throws {
            try checkPath(path)
            guard path.section < new.count else {
                throw fail(.rowOutOfRangeAfter, "attempt to \(verb) row \(path.row) into section \(path.section), but there are only \(new.count) sections after the update")
            }
            guard path.row < new[path.section] else {
                if let source {
                    throw fail(.rowOutOfRangeAfter, "attempt to move index path (\(source.uiKitDescription)) to index path (\(path.uiKitDescription)) that does not exist - there are only \(new[path.section]) rows in section \(path.section) after the update")
                }
                throw fail(.rowOutOfRangeAfter, "attempt to \(verb) row \(path.row) into section \(path.section), but there are only \(new[path.section]) rows in section \(path.section) after the update")
            }
            if insertedSections.contains(path.section) {
                if source != nil { throw fail(.moveIntoInsertedSection, "cannot move a row into a newly inserted section (\(path.section))") }
                throw fail(.rowInInsertedSection, "attempt to \(verb) row \(path.row) into section \(path.section), which is inserted in the same update")
            }
            if let oldSection = newSectionSource[path.section], reloadedSections.contains(oldSection) {
                throw fail(.rowInReloadedSection, "attempt to \(verb) row \(path.row) into section \(path.section), which is reloaded in the same update")
            }
        }
        var deleted = Set<IndexPath>(), movedFrom = Set<IndexPath>(), movedTo = Set<IndexPath>(), inserted = Set<IndexPath>()
        for path in deletedRows {
            try checkOld(path, "delete")
            guard deleted.insert(path).inserted else { throw fail(.duplicateIndexPath, "attempt to delete the same index path (\(path.uiKitDescription)) twice") }
        }
        for path in insertedRows {
            try checkNew(path, "insert")
            guard inserted.insert(path).inserted else { throw fail(.duplicateIndexPath, "attempt to insert the same index path (\(path.uiKitDescription)) twice") }
        }
        for move in movedRows {
            try checkOld(move.from, "move")
            try checkNew(move.to, "move", from: move.from)
            if deleted.contains(move.from) {
                throw fail(.deleteAndMoveSameIndexPath, "attempt to perform a delete and a move from the same index path (\(move.from.uiKitDescription))")
            }
            if inserted.contains(move.to) {
                throw fail(.insertAndMoveSameIndexPath, "attempt to perform an insert and a move to the same index path (\(move.to.uiKitDescription))")
            }
            guard movedFrom.insert(move.from).inserted else { throw fail(.twoMovesFromOneIndexPath, "attempt to move index path (\(move.from.uiKitDescription)) more than once") }
            guard movedTo.insert(move.to).inserted else { throw fail(.twoMovesToOneIndexPath, "attempt to move two rows to index path (\(move.to.uiKitDescription))") }
        }
        for path in reloadedRows {
            try checkOld(path, "reload")
            if deleted.contains(path) { throw fail(.deleteAndReloadSameIndexPath, "attempt to delete and reload the same index path (\(path.uiKitDescription))") }
            if movedFrom.contains(path) {
                throw fail(.reloadAndMoveSameIndexPath, "attempt to create two animations for cell (index path (\(path.uiKitDescription)) is reloaded and moved)")
            }
            if moveSources.contains(path.section) {
                throw fail(.reloadInMovedSection, "attempt to create two animations for cell (row \(path.row) of section \(path.section) is reloaded while section \(path.section) moves)")
            }
        }
        return try mapRows(old: old, new: new, sectionMap: sectionMap, newSectionSource: newSectionSource, touchedOld: deleted.union(movedFrom), touchedNew: inserted.union(movedTo), fail: fail)
    }

    /// Checks each surviving section's row count and works out where every old row goes.
    private func mapRows(
        old: [Int], new: [Int], sectionMap: [Int?], newSectionSource: [Int?], touchedOld: Set<IndexPath>, touchedNew: Set<IndexPath>,
        fail: (BatchUpdateError.Rule, String) -> BatchUpdateError
    ) throws -> BatchMapping {
        var sectionMap = sectionMap
        var rowMap = old.map { [IndexPath?](repeating: nil, count: $0) }
        for move in movedRows { rowMap[move.from.section][move.from.row] = move.to }
        for (newSection, source) in newSectionSource.enumerated() {
            guard let source, !reloadedSections.contains(source) else { continue }
            let inserted = insertedRows.filter { $0.section == newSection }.count
            let movedIn = movedRows.filter { $0.to.section == newSection }.count
            let deleted = deletedRows.filter { $0.section == source }.count
            let movedOut = movedRows.filter { $0.from.section == source }.count
            let expected = old[source] - deleted - movedOut + inserted + movedIn
            guard expected == new[newSection] else {
                throw fail(.invalidNumberOfRows, "invalid number of rows in section \(newSection). The number of rows contained in an existing section after the update (\(new[newSection])) must be equal to the number of rows contained in that section before the update (\(old[source])), plus or minus the number of rows inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of rows moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out).")
            }
            let stayingRows = (0..<old[source]).filter { !touchedOld.contains(IndexPath(row: $0, section: source)) }
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
