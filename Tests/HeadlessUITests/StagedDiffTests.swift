import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

/// A section type whose `init(original:items:)` is wrong in the way `mistake` says.
struct FaultySection: AnimatableSectionModelType, Equatable {
    enum Mistake: Equatable { case doublesItems, losesIdentity }
    var identity: Int
    var items: [Topping]
    var mistake: Mistake

    init(_ identity: Int, _ items: [Topping], mistake: Mistake) {
        self.identity = identity
        self.items = items
        self.mistake = mistake
    }

    init(original: FaultySection, items: [Topping]) {
        self = original
        switch original.mistake {
        case .doublesItems: self.items = items + items
        case .losesIdentity: self.items = items; self.identity = -1
        }
    }
}

/// RxDataSources' staged changesets: deletions and updates, then sections, then rows.
@MainActor @Suite(.resourceCheck) struct StagedDiffTests {
    func t(_ id: Int, _ price: Int = 0) -> Topping { Topping(id: id, price: price) }
    func s(_ name: String, _ items: [Topping]) -> ToppingSection { ToppingSection(model: name, items: items) }

    /// Applies the stages in order, checking each against UIKit's rules and against its own
    /// `finalSections`; the sections reached.
    func applyInOrder(_ stages: [Changeset<ToppingSection>], to initial: [ToppingSection]) throws -> [ToppingSection] {
        var shown = initial
        for stage in stages {
            _ = try stage.batchUpdate.validate(old: shown.map(\.items.count), new: stage.finalSections.map(\.items.count))
            let reached = applyLikeUIKit(stage, to: shown)
            #expect(reached == stage.finalSections)
            shown = reached
        }
        return shown
    }

    /// What kinds of change a stage holds: 1 deletions and updates, 2 sections inserted and
    /// moved, 3 rows inserted and moved.
    func kind(_ stage: Changeset<ToppingSection>) -> Set<Int> {
        var kinds = Set<Int>()
        if !(stage.deletedSections.isEmpty && stage.deletedItems.isEmpty && stage.updatedItems.isEmpty) { kinds.insert(1) }
        if !(stage.insertedSections.isEmpty && stage.movedSections.isEmpty) { kinds.insert(2) }
        if !(stage.insertedItems.isEmpty && stage.movedItems.isEmpty) { kinds.insert(3) }
        return kinds
    }

    @Test func aRowUpdatedAndMovedIsReloadedFirstThenMoved() throws {
        let old = [s("a", [t(0), t(1), t(2)])]
        let new = [s("a", [t(1, 5), t(0), t(2)])]
        let stages = try Diff.differencesForSectionedView(initialSections: old, finalSections: new)
        #expect(stages.count == 2)
        #expect(stages[0].updatedItems == [ItemPath(sectionIndex: 0, itemIndex: 1)])
        #expect(kind(stages[0]) == [1] && stages[0].deletedItems.isEmpty)
        #expect(stages[1].movedItems.count == 1 && kind(stages[1]) == [3] && stages[1].insertedItems.isEmpty)
        #expect(try applyInOrder(stages, to: old) == new)
    }

    @Test func theThreeStagesComeInOrderEachWithItsOwnKindOfChange() throws {
        // Section b goes, c moves to the front, d arrives with a row from b; rows change,
        // move between sections and arrive.
        let old = [s("a", [t(1), t(2), t(3)]), s("b", [t(4), t(5)]), s("c", [t(6)])]
        let new = [s("c", [t(6), t(2, 9)]), s("d", [t(4)]), s("a", [t(7), t(3, 1), t(1)])]
        let stages = try Diff.differencesForSectionedView(initialSections: old, finalSections: new)
        #expect(stages.map(kind) == [[1], [2], [3]])
        #expect(stages[0].deletedSections == [1])
        #expect(stages[1].insertedSections == [1])
        #expect(stages[2].insertedItems == [ItemPath(sectionIndex: 2, itemIndex: 0)])
        #expect(stages[0].originalSections == old && stages.last?.finalSections == new)
        #expect(stages[1].originalSections == stages[0].finalSections && stages[2].originalSections == stages[1].finalSections)
        #expect(try applyInOrder(stages, to: old) == new)
    }

    @Test func rowsOfDeletedAndIntoInsertedSectionsAreDeletedAndInserted() throws {
        let old = [s("a", [t(1)]), s("b", [t(2)])]
        let new = [s("b", [t(9)]), s("a", [])]
        let stages = try Diff.differencesForSectionedView(initialSections: old, finalSections: new)
        #expect(try applyInOrder(stages, to: old) == new)
        let moved = try Diff.differencesForSectionedView(initialSections: [s("a", [t(1), t(2)])], finalSections: [s("a", [t(2)]), s("n", [t(1)])])
        #expect(moved.map(kind) == [[1], [2]])
        #expect(moved[0].deletedItems == [ItemPath(sectionIndex: 0, itemIndex: 0)])
    }

    @Test func nothingChangedGivesNoChangesets() throws {
        let sections = [s("a", [t(1), t(2)]), s("b", [])]
        #expect(try Diff.differencesForSectionedView(initialSections: sections, finalSections: sections).isEmpty)
    }

    @Test func singleKindsOfChangeAreOneChangeset() throws {
        let old = [s("a", [t(0), t(1), t(2)])]
        for new in [[s("a", [t(0), t(1), t(2), t(3)])], [s("a", [t(0), t(2)])], [s("a", [t(0), t(1, 4), t(2)])], [s("a", [t(2), t(0), t(1)])], old + [s("b", [])], []] {
            let stages = try Diff.differencesForSectionedView(initialSections: old, finalSections: new)
            #expect(stages.count == 1, "\(new)")
            #expect(try applyInOrder(stages, to: old) == new)
        }
    }

    @Test func duplicateErrorsCarryTheItemAndTheSection() throws {
        let items = [s("a", [t(1111)]), s("b", [t(1111)])]
        #expect {
            try Diff.differencesForSectionedView(initialSections: items, finalSections: items)
        } throws: { error in
            guard case .duplicateItem(let item) = error as? Diff.Error else { return false }
            return item as? Topping == t(1111)
        }
        let sections = [s("a", [t(1)]), s("a", [t(2)])]
        #expect {
            try Diff.differencesForSectionedView(initialSections: sections, finalSections: sections)
        } throws: { error in
            guard case .duplicateSection(let section) = error as? Diff.Error else { return false }
            return section as? ToppingSection == s("a", [t(2)])
        }
        #expect {
            try Diff.differencesForSectionedView(initialSections: [s("a", [t(1)])], finalSections: [s("a", [t(2), t(2)])])
        } throws: { error in
            guard case .duplicateItem(let item) = error as? Diff.Error else { return false }
            return item as? Topping == t(2)
        }
    }

    @Test(arguments: [FaultySection.Mistake.doublesItems, .losesIdentity])
    func aFaultySectionInitializerIsAnError(mistake: FaultySection.Mistake) {
        let sections = [FaultySection(1, [Topping(id: 1111, price: 0)], mistake: mistake)]
        #expect {
            try Diff.differencesForSectionedView(initialSections: sections, finalSections: sections)
        } throws: { error in
            guard case .invalidInitializerImplementation(let section, let items, let identity) = error as? Diff.Error,
                let section = section as? FaultySection
            else { return false }
            let made = FaultySection(original: sections[0], items: sections[0].items)
            return section == made && items as? [Topping] == sections[0].items && identity as? Int == 1
        }
    }

    @Test(arguments: 0..<40)
    func randomEditsApplyStageByStageToTheFinalSections(seed: Int) throws {
        for (old, new) in randomEditWalk(seed: UInt64(seed) &* 6_151 &+ 5, steps: 30, doubled: true) {
            let stages = try Diff.differencesForSectionedView(initialSections: old, finalSections: new)
            #expect(try applyInOrder(stages, to: old) == new, "old: \(old)\nnew: \(new)")
            #expect(stages.count <= 3 && stages.allSatisfy { kind($0).count == 1 })
            #expect(stages.map { kind($0).first! } == stages.map { kind($0).first! }.sorted())
            #expect(stages.isEmpty == (old == new))
        }
    }
}
