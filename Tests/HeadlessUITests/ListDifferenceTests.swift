import Differentiator
import Testing
import TestSupport

/// `ListDifference`, the one change value: the key diff keeps a longest run of keys in order,
/// and every difference it makes turns the previous list into the new one.
@Suite struct ListDifferenceTests {
    @Test func theDocumentedExample() {
        // a b c d -> a c' d e b: b moved (deleted and inserted), e came, c changed.
        let difference = ListDifference(from: ["a", "b", "c", "d"], to: ["a", "c", "d", "e", "b"]) { $0 == "c" }
        #expect(difference.deletions == [1])
        #expect(difference.insertions == [3, 4])
        #expect(difference.updates == [ListDifference.Update(old: 2, new: 1)])
        #expect(difference.modifications == [1])
        #expect(difference.reloads == [2])
        #expect(difference.moves.isEmpty)
        #expect(difference.applied(to: ["a", "b", "c", "d"], taking: ["a", "c'", "d", "e", "b"]) == ["a", "c'", "d", "e", "b"])
    }

    @Test func randomListsOfUniqueKeys() {
        var random = SeededRandom(seed: 20261203)
        for round in 0..<2_000 {
            let old = Array(0..<Int.random(in: 0...14, using: &random)).shuffled(using: &random)
            var new = old.filter { _ in Int.random(in: 0..<4, using: &random) != 0 }.shuffled(using: &random)
            if Bool.random(using: &random) { new.sort() }
            for key in 100..<(100 + Int.random(in: 0...4, using: &random)) {
                new.insert(key, at: Int.random(in: 0...new.count, using: &random))
            }
            let changed = Set(old.filter { _ in Bool.random(using: &random) })
            let difference = ListDifference(from: old, to: new) { changed.contains($0) }
            // Each element is its key and a version, so an update must bring the new version.
            let before = old.map { ($0, 0) }
            let after = new.map { ($0, changed.contains($0) ? 1 : 0) }
            let applied = difference.applied(to: before, taking: after)
            #expect(applied?.map(\.0) == new, "round \(round): \(old) -> \(new)")
            #expect(applied?.map(\.1) == after.map(\.1), "round \(round): an update or an arrival lost its new version")
            // The keys that stay are a longest increasing run of their previous positions.
            let positions = new.compactMap { old.firstIndex(of: $0) }
            #expect(new.count - difference.insertions.count == longestIncreasing(positions), "round \(round)")
            for update in difference.updates {
                #expect(old[update.old] == new[update.new] && changed.contains(new[update.new]), "round \(round)")
            }
            #expect(difference.deletions == difference.deletions.sorted() && difference.insertions == difference.insertions.sorted())
            #expect(difference.reloads == difference.reloads.sorted() && difference.modifications == difference.modifications.sorted())
        }
    }

    @Test func aDifferenceThatDoesNotJoinTheListsIsRefused() {
        let two = ListDifference(deletions: [0])
        #expect(two.applied(to: [1, 2], taking: [2]) == [2])
        #expect(two.applied(to: [1, 2], taking: [1, 2]) == nil)          // counts do not add up
        #expect(ListDifference(deletions: [5]).applied(to: [1], taking: []) == nil)
        let wrongUpdate = ListDifference(deletions: [0], updates: [ListDifference.Update(old: 0, new: 0)])
        #expect(wrongUpdate.applied(to: [1, 2], taking: [2]) == nil)  // position 0 now holds what was at 1
        let moved = ListDifference(moves: [ListDifference.Move(from: 0, to: 2)])
        #expect(moved.applied(to: ["a", "b", "c"], taking: ["b", "c", "a"]) == ["b", "c", "a"])
    }

    @Test func aOneSectionChangesetCarriesTheDifferenceAsItIs() {
        let difference = ListDifference(deletions: [1], insertions: [2], updates: [ListDifference.Update(old: 3, new: 1)],
                                        moves: [ListDifference.Move(from: 0, to: 3)])
        let changeset = Changeset(section: SectionModel(model: "s", items: ["x"]), difference: difference)
        #expect(changeset.deletedItems == [ItemPath(sectionIndex: 0, itemIndex: 1)])
        #expect(changeset.insertedItems == [ItemPath(sectionIndex: 0, itemIndex: 2)])
        #expect(changeset.updatedItems == [ItemPath(sectionIndex: 0, itemIndex: 3)])
        #expect(changeset.movedItems.map { [$0.from, $0.to] } == [[ItemPath(sectionIndex: 0, itemIndex: 0), ItemPath(sectionIndex: 0, itemIndex: 3)]])
        #expect(!changeset.reloadData && changeset.originalSections.isEmpty)
    }

    /// The length of a longest strictly increasing subsequence, by the quadratic recurrence.
    private func longestIncreasing(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }
}
