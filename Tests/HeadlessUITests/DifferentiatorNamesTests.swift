import HeadlessUI
import Testing

/// RxDataSources' Differentiator names beside the diff itself.
@MainActor @Suite struct DifferentiatorNamesTests {
    @Test func identifiableValueIsItsOwnIdentity() {
        let items = ["Margherita", "Diavola"].map(IdentifiableValue.init)
        #expect(items.map(\.identity) == ["Margherita", "Diavola"])
        #expect(items[0] == IdentifiableValue(value: "Margherita"))
        #expect(items[1].description == "Diavola")
        #expect(items[1].debugDescription == "IdentifiableValue(Diavola)")
        let section = AnimatableSectionModel(model: "Menu", items: items)
        let moved = AnimatableSectionModel(model: "Menu", items: Array(items.reversed()))
        let changesets = try? Diff.differencesForSectionedView(initialSections: [section], finalSections: [moved])
        #expect(changesets?.flatMap(\.movedItems).isEmpty == false)
    }

    @Test func theInitialChangesetReloadsAndInsertsEverySection() {
        let sections = [SectionModel(model: "Pizzas", items: [1, 2]), SectionModel(model: "Drinks", items: [3])]
        let changeset = Changeset<SectionModel<String, Int>>.initialValue(sections)
        #expect(changeset.reloadData)
        #expect(changeset.insertedSections == [0, 1])
        #expect(changeset.finalSections.map(\.identity) == ["Pizzas", "Drinks"])
        #expect(changeset.debugDescription == "reload 2 sections")
        var moved = Changeset<SectionModel<String, Int>>()
        moved.movedItems = [(from: ItemPath(sectionIndex: 0, itemIndex: 0), to: ItemPath(sectionIndex: 0, itemIndex: 1))]
        #expect(moved.debugDescription == "moved items [\"(0, 0)→(0, 1)\"]")
        #expect(Changeset<SectionModel<String, Int>>().debugDescription == "no changes")
    }

    @Test func sectionModelsNameTheirItemAndIdentityTypes() {
        let plain: SectionModel<String, Int>.Item = 3
        let identity: SectionModel<String, Int>.Identity = "Pizzas"
        let animatedItem: AnimatableSectionModel<String, String>.Item = "Diavola"
        let animatedIdentity: AnimatableSectionModel<String, String>.Identity = "Menu"
        #expect(plain == 3 && identity == "Pizzas" && animatedItem == "Diavola" && animatedIdentity == "Menu")
        #expect(ItemPath(sectionIndex: 1, itemIndex: 2).debugDescription == "(1, 2)")
    }
}
