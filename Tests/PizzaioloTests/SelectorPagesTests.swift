import Foundation
import Testing
@testable import Pizzaiolo

/// `SelectorViewModel.Pages`, the Selector's rules, folded event by event with no subscription.
@MainActor @Suite struct SelectorPagesTests {
    typealias Pages = SelectorViewModel.Pages

    static let base = URL(string: "http://pizzaiolo.local")!
    static func page(_ id: Int, _ name: String, _ categories: [Int]) -> PizzaPage {
        PizzaPage(Pizza(id: id, name: name, summary: "", categories: categories.map { Category(id: $0, name: "\($0)") }, price: 100 * id, photo: ""), baseURL: base)
    }
    static let menu = [page(1, "Margherita", [1, 2]), page(2, "Marinara", [1]), page(3, "Frutti di Mare", [3]), page(4, "Bianca", [4])]

    @Test func theStartPageIsFoundWhenTheMenuArrivesAndOnlyThen() {
        var pages = Pages(start: .named("frutti di mare"))
        #expect(pages.current == nil)
        pages = pages.reduced(by: .menu([]))
        #expect(pages.start == .named("frutti di mare"))           // kept until the menu holds it
        pages = pages.reduced(by: .menu(Self.menu))
        #expect(pages.current?.name == "Frutti di Mare")
        #expect(pages.start == nil)
        pages = pages.reduced(by: .menu(Self.menu.reversed()))       // a later menu keeps the page shown
        #expect(pages.current?.name == "Frutti di Mare")
        #expect(pages.index == 1)
    }

    @Test func chipsFilterInMenuOrderAndKeepTheCurrentPizzaWhileItIsShown() {
        var pages = Pages(start: .id(2)).reduced(by: .menu(Self.menu))
        #expect(pages.index == 1)
        pages = pages.reduced(by: .toggle(categoryID: 1))
        #expect(pages.pages.map(\.id) == [1, 2])
        #expect(pages.current?.id == 2)
        pages = pages.reduced(by: .toggle(categoryID: 3))
        #expect(pages.pages.map(\.id) == [1, 2, 3])                   // ANY of the selected categories
        pages = pages.reduced(by: .toggle(categoryID: 1))
        #expect(pages.pages.map(\.id) == [3])
        #expect(pages.index == 0)                                   // Marinara is gone: the first page
        pages = pages.reduced(by: .toggle(categoryID: 3))
        #expect(pages.selected.isEmpty)
        #expect(pages.pages.count == 4)
        #expect(pages.current?.id == 3)
    }

    @Test func pagingStaysInsideThePages() {
        var pages = Pages(start: nil).reduced(by: .menu(Self.menu))
        pages = pages.reduced(by: .previous)
        #expect(pages.index == 0)
        for _ in 0..<10 { pages = pages.reduced(by: .next) }
        #expect(pages.index == 3)
        pages = pages.reduced(by: .select(9))
        #expect(pages.index == 3)
        pages = pages.reduced(by: .select(1))
        #expect(pages.current?.name == "Marinara")
        #expect(Pages(start: nil).reduced(by: .next).index == 0)     // no pages, no page
    }
}
