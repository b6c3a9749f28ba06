import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

struct Topping: IdentifiableType, Equatable, CustomStringConvertible {
    let id: Int
    var price: Int
    var identity: Int { id }
    var description: String { "\(id):\(price)" }
}

typealias ToppingSection = AnimatableSectionModel<String, Topping>

/// Applies a changeset with UIKit's batch semantics: deletions and reloads at old positions,
/// insertions and move targets at new positions, every other row keeping its relative order.
/// Only inserted rows and rows whose value is declared updated read the final data.
func applyLikeUIKit(_ changes: Changeset<ToppingSection>, to old: [ToppingSection]) -> [ToppingSection] {
    let final = changes.finalSections
    let sectionCount = old.count - changes.deletedSections.count + changes.insertedSections.count
    var source = [Int?](repeating: nil, count: sectionCount)
    var isInserted = [Bool](repeating: false, count: sectionCount)
    for index in changes.insertedSections { isInserted[index] = true }
    for move in changes.movedSections { source[move.to] = move.from }
    let staying = old.indices.filter { index in !changes.deletedSections.contains(index) && !changes.movedSections.contains { $0.from == index } }
    var free = (0..<sectionCount).filter { !isInserted[$0] && source[$0] == nil }.makeIterator()
    for index in staying { source[free.next()!] = index }
    var result: [ToppingSection] = []
    for newSection in 0..<sectionCount {
        if isInserted[newSection] {
            result.append(final[newSection])
            continue
        }
        let oldSection = source[newSection]!
        let deleted = Set(changes.deletedItems.filter { $0.sectionIndex == oldSection }.map(\.itemIndex))
        let movedOut = Set(changes.movedItems.filter { $0.from.sectionIndex == oldSection }.map(\.from.itemIndex))
        let inserted = changes.insertedItems.filter { $0.sectionIndex == newSection }
        let movedIn = changes.movedItems.filter { $0.to.sectionIndex == newSection }
        let count = old[oldSection].items.count - deleted.count - movedOut.count + inserted.count + movedIn.count
        var slots = [Topping?](repeating: nil, count: count)
        for path in inserted { slots[path.itemIndex] = final[newSection].items[path.itemIndex] }
        for move in movedIn { slots[move.to.itemIndex] = old[move.from.sectionIndex].items[move.from.itemIndex] }
        var freeRows = slots.indices.filter { slots[$0] == nil }.makeIterator()
        for (row, item) in old[oldSection].items.enumerated() where !deleted.contains(row) && !movedOut.contains(row) {
            let target = freeRows.next()!
            if changes.updatedItems.contains(ItemPath(sectionIndex: oldSection, itemIndex: row)) {
                let updated = final[newSection].items[target]
                #expect(updated.identity == item.identity, "an update changed identity")
                slots[target] = updated
            } else {
                slots[target] = item
            }
        }
        result.append(ToppingSection(model: old[oldSection].model, items: slots.map { $0! }))
    }
    return result
}

/// A random walk of edits from random sections: `steps` pairs (before, after), each after one
/// `randomEdit` of the before, or (when `doubled`, at random) two.
func randomEditWalk(seed: UInt64, steps: Int, doubled: Bool) -> [(old: [ToppingSection], new: [ToppingSection])] {
    var random = SeededRandom(seed: seed)
    var nextID = 0
    var old = randomSections(&random, nextID: &nextID)
    var pairs: [(old: [ToppingSection], new: [ToppingSection])] = []
    for _ in 0..<steps {
        var new = randomEdit(old, &random, nextID: &nextID)
        if doubled && Bool.random(using: &random) { new = randomEdit(new, &random, nextID: &nextID) }
        pairs.append((old, new))
        old = new
    }
    return pairs
}

/// Random sections, then random edits of them.
func randomSections(_ random: inout SeededRandom, nextID: inout Int) -> [ToppingSection] {
    let names = ["a", "b", "c", "d", "e"].shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random))
    return names.map { name in
        ToppingSection(model: name, items: (0..<Int.random(in: 0...6, using: &random)).map { _ in
            nextID += 1
            return Topping(id: nextID, price: Int.random(in: 0...3, using: &random))
        })
    }
}

func randomEdit(_ sections: [ToppingSection], _ random: inout SeededRandom, nextID: inout Int) -> [ToppingSection] {
    var sections = sections
    for _ in 0..<Int.random(in: 1...6, using: &random) {
        switch Int.random(in: 0..<8, using: &random) {
        case 0 where !sections.isEmpty:
            sections.remove(at: Int.random(in: 0..<sections.count, using: &random))
        case 1:
            let used = Set(sections.map(\.model))
            if let name = ["a", "b", "c", "d", "e", "f"].first(where: { !used.contains($0) }) {
                nextID += 1
                sections.insert(ToppingSection(model: name, items: [Topping(id: nextID, price: 0)]), at: Int.random(in: 0...sections.count, using: &random))
            }
        case 2 where sections.count > 1:
            let section = sections.remove(at: Int.random(in: 0..<sections.count, using: &random))
            sections.insert(section, at: Int.random(in: 0...sections.count, using: &random))
        case 3 where !sections.isEmpty:
            let s = Int.random(in: 0..<sections.count, using: &random)
            nextID += 1
            sections[s].items.insert(Topping(id: nextID, price: 1), at: Int.random(in: 0...sections[s].items.count, using: &random))
        case 4, 5:
            let nonEmpty = sections.indices.filter { !sections[$0].items.isEmpty }
            guard let s = nonEmpty.randomElement(using: &random) else { continue }
            let item = sections[s].items.remove(at: Int.random(in: 0..<sections[s].items.count, using: &random))
            if Int.random(in: 0..<3, using: &random) > 0 {
                // Move it somewhere (maybe another section), perhaps changing it too.
                let t = Int.random(in: 0..<sections.count, using: &random)
                var moved = item
                if Bool.random(using: &random) { moved.price += 10 }
                sections[t].items.insert(moved, at: Int.random(in: 0...sections[t].items.count, using: &random))
            }
        default:
            let nonEmpty = sections.indices.filter { !sections[$0].items.isEmpty }
            guard let s = nonEmpty.randomElement(using: &random) else { continue }
            sections[s].items[Int.random(in: 0..<sections[s].items.count, using: &random)].price += 1
        }
    }
    return sections
}

@MainActor @Suite(.resourceCheck) struct DiffTests {
    func diff(_ old: [ToppingSection], _ new: [ToppingSection]) throws -> Changeset<ToppingSection>? {
        try Diff.differencesInOneBatch(initialSections: old, finalSections: new)
    }

    /// The one-batch diff as a list of changesets, like the reference's.
    static func oneBatch(_ old: [ToppingSection], _ new: [ToppingSection]) throws -> [Changeset<ToppingSection>] {
        try Diff.differencesInOneBatch(initialSections: old, finalSections: new).map { [$0] } ?? []
    }

    @Test func insertDeleteAndUpdateRows() throws {
        let old = [ToppingSection(model: "a", items: [Topping(id: 1, price: 0), Topping(id: 2, price: 0), Topping(id: 3, price: 0)])]
        let new = [ToppingSection(model: "a", items: [Topping(id: 1, price: 5), Topping(id: 3, price: 0), Topping(id: 4, price: 0)])]
        let changes = try #require(try diff(old, new))
        #expect(changes.deletedItems == [ItemPath(sectionIndex: 0, itemIndex: 1)])
        #expect(changes.insertedItems == [ItemPath(sectionIndex: 0, itemIndex: 2)])
        #expect(changes.movedItems.isEmpty)
        #expect(changes.updatedItems == [ItemPath(sectionIndex: 0, itemIndex: 0)])
        #expect(applyLikeUIKit(changes, to: old) == new)
    }

    @Test func movedRowsAcrossSections() throws {
        let old = [ToppingSection(model: "a", items: [Topping(id: 1, price: 0), Topping(id: 2, price: 0)]), ToppingSection(model: "b", items: [])]
        let new = [ToppingSection(model: "a", items: [Topping(id: 2, price: 0)]), ToppingSection(model: "b", items: [Topping(id: 1, price: 0)])]
        let changes = try #require(try diff(old, new))
        #expect(changes.movedItems.map { [$0.from, $0.to] } == [[ItemPath(sectionIndex: 0, itemIndex: 0), ItemPath(sectionIndex: 1, itemIndex: 0)]])
        #expect(changes.insertedItems.isEmpty && changes.deletedItems.isEmpty && changes.updatedItems.isEmpty)
        #expect(applyLikeUIKit(changes, to: old) == new)
    }

    @Test func sectionsAreInsertedDeletedAndMoved() throws {
        let old = ["a", "b", "c"].map { ToppingSection(model: $0, items: []) }
        let new = ["c", "d", "a"].map { ToppingSection(model: $0, items: []) }
        let changes = try #require(try diff(old, new))
        #expect(changes.deletedSections == [1])
        #expect(changes.insertedSections == [1])
        #expect(changes.movedSections.count == 1)
        #expect(applyLikeUIKit(changes, to: old) == new)
    }

    @Test func noChangeGivesNoChangeset() throws {
        let sections = [ToppingSection(model: "a", items: [Topping(id: 1, price: 0)])]
        #expect(try diff(sections, sections) == nil)
    }

    @Test func duplicateIdentitiesAreErrors() {
        let duplicated = [ToppingSection(model: "a", items: [Topping(id: 1, price: 0), Topping(id: 1, price: 1)])]
        #expect(throws: Diff.Error.self) { try diff([], duplicated) }
        let twice = [ToppingSection(model: "a", items: []), ToppingSection(model: "a", items: [])]
        #expect(throws: Diff.Error.self) { try diff(twice, []) }
    }

    @Test(arguments: 0..<20)
    func applyingTheDiffToTheOldDataGivesTheNewData(seed: Int) throws {
        for (old, new) in randomEditWalk(seed: UInt64(seed) &* 7_919 &+ 1, steps: 25, doubled: false) {
            if let changes = try diff(old, new) {
                #expect(applyLikeUIKit(changes, to: old) == new, "old: \(old)\nnew: \(new)")
                // The same changes form a valid UIKit batch.
                _ = try changes.batchUpdate.validate(old: old.map(\.items.count), new: new.map(\.items.count))
            } else {
                #expect(old == new)
            }
        }
    }

    /// Every field of two changesets, in order, as text (changesets hold tuples, so they are
    /// not Equatable).
    static func fields(_ changes: [Changeset<ToppingSection>]) -> [String] {
        changes.map { c in
            "sections +\(c.insertedSections) -\(c.deletedSections) moved \(c.movedSections.map { "\($0.from)>\($0.to)" }) updated \(c.updatedSections) | "
                + "items +\(c.insertedItems) -\(c.deletedItems) moved \(c.movedItems.map { "\($0.from)>\($0.to)" }) updated \(c.updatedItems)"
        }
    }

    /// The outcome of a diff as text: its fields, or its error.
    static func outcome(_ diff: () throws -> [Changeset<ToppingSection>]) -> [String] {
        do { return fields(try diff()) } catch let error as Diff.Error { return ["error: \(error.debugDescription)"] } catch { return ["unexpected \(error)"] }
    }

    /// Sometimes gives a row the identity of another row (in the same or another section).
    static func maybeDuplicate(_ sections: [ToppingSection], _ random: inout SeededRandom) -> [ToppingSection] {
        var sections = sections
        let rows = sections.indices.flatMap { s in sections[s].items.indices.map { (s, $0) } }
        guard rows.count > 1, Int.random(in: 0..<10, using: &random) == 0 else { return sections }
        let from = rows.randomElement(using: &random)!, to = rows.randomElement(using: &random)!
        guard from != to else { return sections }
        sections[to.0].items[to.1] = Topping(id: sections[from.0].items[from.1].id, price: 99)
        return sections
    }

    @Test(arguments: 0..<100)
    func theRebuiltDiffGivesExactlyTheChangesetsOfTheReferenceDiff(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 3)
        var nextID = 0
        var old = randomSections(&random, nextID: &nextID)
        for _ in 0..<40 {
            var new = randomEdit(old, &random, nextID: &nextID)
            // Larger edits now and then: several at once, rows moving between sections.
            if Bool.random(using: &random) { new = randomEdit(new, &random, nextID: &nextID) }
            let (left, right) = Bool.random(using: &random) ? (Self.maybeDuplicate(old, &random), new) : (old, Self.maybeDuplicate(new, &random))
            let expected = Self.outcome { try ReferenceDiff.differences(initialSections: left, finalSections: right) }
            let actual = Self.outcome { try Self.oneBatch(left, right) }
            #expect(actual == expected, "old: \(left)\nnew: \(right)")
            old = new
        }
    }

    @Test func theRebuiltDiffMatchesTheReferenceOnLargeShuffles() {
        var random = SeededRandom(seed: 42)
        let rows = (0..<3_000).map { Topping(id: $0, price: 0) }
        for round in 0..<10 {
            var items = rows
            // A few hundred random moves, edits, deletions and insertions.
            for step in 0..<(round * 40) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: items.remove(at: Int.random(in: 0..<items.count, using: &random))
                case 1: items.insert(Topping(id: 10_000 + round * 1_000 + step, price: 0), at: Int.random(in: 0...items.count, using: &random))
                case 2: items[Int.random(in: 0..<items.count, using: &random)].price += 1
                default: items.insert(items.remove(at: Int.random(in: 0..<items.count, using: &random)), at: Int.random(in: 0..<items.count, using: &random))
                }
            }
            let split = Int.random(in: 0...items.count, using: &random)
            let old = [ToppingSection(model: "a", items: Array(rows[..<1_500])), ToppingSection(model: "b", items: Array(rows[1_500...]))]
            let new = [ToppingSection(model: "b", items: Array(items[..<split])), ToppingSection(model: "a", items: Array(items[split...]))]
            let expected = Self.outcome { try ReferenceDiff.differences(initialSections: old, finalSections: new) }
            let actual = Self.outcome { try Self.oneBatch(old, new) }
            #expect(actual == expected)
            if let changes = try? Diff.differencesInOneBatch(initialSections: old, finalSections: new) {
                #expect(applyLikeUIKit(changes, to: old) == new)
            }
        }
    }

    @Test func aChangedRowOfAMovedSectionIsReplacedInOneBatch() throws {
        // b stays, a moves after it; a's row changed.
        let old = [ToppingSection(model: "a", items: [Topping(id: 1, price: 0)]), ToppingSection(model: "b", items: [])]
        let new = [ToppingSection(model: "b", items: []), ToppingSection(model: "a", items: [Topping(id: 1, price: 1)])]
        let changes = try #require(try diff(old, new))
        #expect(changes.movedSections.map { [$0.from, $0.to] } == [[0, 1]])
        #expect(changes.updatedItems.isEmpty)
        #expect(changes.deletedItems == [ItemPath(sectionIndex: 0, itemIndex: 0)] && changes.insertedItems == [ItemPath(sectionIndex: 1, itemIndex: 0)])
        #expect(applyLikeUIKit(changes, to: old) == new)
        _ = try changes.batchUpdate.validate(old: old.map(\.items.count), new: new.map(\.items.count))
    }

    @Test func longestIncreasingSubsequenceKeepsMostRowsInPlace() throws {
        // Moving one row to the front should move exactly one row.
        let items = (1...6).map { Topping(id: $0, price: 0) }
        let old = [ToppingSection(model: "a", items: items)]
        let new = [ToppingSection(model: "a", items: [items[5]] + items[0..<5])]
        let changes = try #require(try diff(old, new))
        #expect(changes.movedItems.count == 1)
        #expect(changes.insertedItems.isEmpty && changes.deletedItems.isEmpty)
    }
}

@MainActor
extension BatchUpdate {
    func validate(old: [Int], new: [Int]) throws -> Bool {
        // Run the update on a scratch table, the way a data source would.
        let table = TableView(height: 10_000, rowHeight: 1)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = CountsDataSource(old)
        table.dataSource = dataSource
        dataSource.counts = new
        try table.performBatchUpdates({
            table.deleteSections(deletedSections)
            table.insertSections(insertedSections)
            table.reloadSections(reloadedSections)
            for move in movedSections { table.moveSection(move.from, toSection: move.to) }
            table.deleteRows(at: deletedRows)
            table.insertRows(at: insertedRows)
            table.reloadRows(at: reloadedRows)
            for move in movedRows { table.moveRow(at: move.from, to: move.to) }
        })
        return true
    }
}

final class CountsDataSource: TableViewDataSource {
    var counts: [Int]
    init(_ counts: [Int]) { self.counts = counts }
    func numberOfSections(in tableView: TableView) -> Int { counts.count }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { counts[section] }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
    }
}
