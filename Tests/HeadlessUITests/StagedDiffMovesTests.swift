import HeadlessUI
import TestSupport
import Testing

/// Which rows and sections the staged diff moves: RxDataSources' Differentiator's choice,
/// written here the way it is described (walking the final side with a cursor on the old side),
/// while the diff finds it in one pass over the old side.
enum CursorMoves {
    /// The section moves (old position among surviving sections → new index), in old order.
    static func sections(_ old: [ToppingSection], _ new: [ToppingSection]) -> [[Int]] {
        let newIndex = Dictionary(uniqueKeysWithValues: new.enumerated().map { ($0.element.identity, $0.offset) })
        let oldIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($0.element.identity, $0.offset) })
        var placed = Set<Int>(), moved = Set<Int>()
        for section in new {
            guard let origin = oldIndex[section.identity] else { continue }
            // The cursor: the first old section that survives and is not placed yet.
            let cursor = old.indices.first { newIndex[old[$0].identity] != nil && !placed.contains($0) }
            if origin != cursor { moved.insert(origin) }
            placed.insert(origin)
        }
        let surviving = old.indices.filter { newIndex[old[$0].identity] != nil }
        return surviving.enumerated().filter { moved.contains($0.element) }.map { [$0.offset, newIndex[old[$0.element].identity]!] }
    }

    /// The row moves (section, row after deletions → section, row), in final order.
    static func rows(_ old: [ToppingSection], _ new: [ToppingSection]) -> [[ItemPath]] {
        let oldSection = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($0.element.identity, $0.offset) })
        let newSection = Dictionary(uniqueKeysWithValues: new.enumerated().map { ($0.element.identity, $0.offset) })
        var oldPath: [Int: ItemPath] = [:], newPath: [Int: ItemPath] = [:]
        for (s, section) in old.enumerated() { for (r, item) in section.items.enumerated() { oldPath[item.id] = ItemPath(sectionIndex: s, itemIndex: r) } }
        for (s, section) in new.enumerated() { for (r, item) in section.items.enumerated() { newPath[item.id] = ItemPath(sectionIndex: s, itemIndex: r) } }
        // A row stays in the list's middle stages when its old and new sections both survive.
        func remains(_ id: Int) -> Bool {
            guard let to = newPath[id], let from = oldPath[id] else { return false }
            return oldSection[new[to.sectionIndex].identity] != nil && newSection[old[from.sectionIndex].identity] != nil
        }
        var placed = Set<Int>(), moves: [[ItemPath]] = []
        for section in new {
            guard let origin = oldSection[section.identity] else { continue }
            for item in section.items where remains(item.id) {
                let cursor = old[origin].items.first { remains($0.id) && !placed.contains($0.id) }
                if cursor?.id != item.id {
                    let from = oldPath[item.id]!
                    let position = old[from.sectionIndex].items[..<from.itemIndex].filter { remains($0.id) }.count
                    let fromSection = newSection[old[from.sectionIndex].identity]!
                    moves.append([ItemPath(sectionIndex: fromSection, itemIndex: position), newPath[item.id]!])
                }
                placed.insert(item.id)
            }
        }
        return moves
    }
}

/// The staged diff moves what RxDataSources' Differentiator moves, so tests that count moves
/// port unchanged.
@MainActor @Suite(.resourceCheck) struct StagedDiffMovesTests {
    func t(_ id: Int) -> Topping { Topping(id: id, price: 0) }
    func s(_ name: String, _ ids: [Int]) -> ToppingSection { ToppingSection(model: name, items: ids.map(t)) }

    func moves(_ old: [ToppingSection], _ new: [ToppingSection]) throws -> (sections: [[Int]], rows: [[ItemPath]]) {
        let stages = try Diff.differencesForSectionedView(initialSections: old, finalSections: new)
        return (stages.flatMap { $0.movedSections.map { [$0.from, $0.to] } }, stages.flatMap { $0.movedItems.map { [$0.from, $0.to] } })
    }

    func path(_ section: Int, _ row: Int) -> ItemPath { ItemPath(sectionIndex: section, itemIndex: row) }

    @Test func theFirstRowToTheEndMovesEveryOtherRow() throws {
        // RxDataSources' testItemMove1: 0 1 2 → 1 2 0 is two moves (rows 1 and 2 go up).
        let found = try moves([s("a", [0, 1, 2])], [s("a", [1, 2, 0])])
        #expect(found.rows == [[path(0, 1), path(0, 0)], [path(0, 2), path(0, 1)]])
        #expect(found.sections.isEmpty)
    }

    @Test func theLastRowToTheFrontMovesThatRowOnly() throws {
        let found = try moves([s("a", [0, 1, 2, 3])], [s("a", [3, 0, 1, 2])])
        #expect(found.rows == [[path(0, 3), path(0, 0)]])
    }

    @Test func theFirstSectionToTheEndMovesTheOthers() throws {
        // RxDataSources' testMovedSection1: sections 1 2 3 → 2 3 1 is two section moves.
        let found = try moves([s("1", [0]), s("2", [1]), s("3", [2])], [s("2", [1]), s("3", [2]), s("1", [0])])
        #expect(found.sections == [[1, 0], [2, 1]])
        #expect(found.rows.isEmpty)
    }

    @Test func rowMovesAreListedInFinalOrder() throws {
        // 0 1 2 3 → 3 2 1 0: 3, 2 and 1 each come while the cursor is on 0, so they move; 0
        // stays. The pass over the old side finds them in the order 1, 2, 3.
        let found = try moves([s("a", [0, 1, 2, 3])], [s("a", [3, 2, 1, 0])])
        #expect(found.rows == [[path(0, 3), path(0, 0)], [path(0, 2), path(0, 1)], [path(0, 1), path(0, 2)]])
    }

    @Test(arguments: 0..<40)
    func randomEditsMoveWhatTheCursorRuleMoves(seed: Int) throws {
        for (old, new) in randomEditWalk(seed: UInt64(seed) &* 7_919 &+ 3, steps: 30, doubled: true) {
            let found = try moves(old, new)
            #expect(found.sections == CursorMoves.sections(old, new), "old: \(old)\nnew: \(new)")
            #expect(found.rows == CursorMoves.rows(old, new), "old: \(old)\nnew: \(new)")
        }
    }
}
