import Foundation
import HeadlessUI
import MVVM
import ObjectStore
import Repository
import Streams

/// The Selector's state: the menu (the ``MenuRepository/pizzas`` Manager, the one source of
/// pizzas) filtered by the selected category chips, one page per pizza, the current page, and
/// the thumbnail strip in sync with it.
///
///     menu:      ─[9 pizzas]──────────────────────────────
///     chips:     ───────────── {3} ─────────── {} ────────
///     pages:     ─[9 pizzas]── [the 3 seafood] ─ [9 pizzas]
///
/// The rules live in ``Pages``, a value each event is folded into with `scan`; the outputs
/// are `Driver`s of it, and Add to cart reads the current page with `withLatestFrom`. A
/// pizza stays the current page when the chips change and it is still shown.
///
/// The list under the pager is one live query that follows the chips: each selection is a
/// `ViewModelQuery`, and `observeChanges(on:)` over them gives change sets, so a chip switch animates
/// the rows that left and came instead of reloading the table.
public final class SelectorViewModel {
    /// Where the Selector opens.
    public enum Start: Equatable, Sendable {
        /// At the pizza with this id.
        case id(Int)
        /// At the pizza with this name (a Home card names its pizza).
        case named(String)
    }

    /// The pages and which one is shown, as a value: each event gives the next.
    public struct Pages: Equatable, Sendable {
        /// The menu as the Manager delivered it.
        public private(set) var menu: [PizzaPage] = []
        /// The selected chips (none: the whole menu).
        public private(set) var selected: Set<Int> = []
        /// The pages shown: the menu's pizzas in any selected category, in menu order.
        public private(set) var pages: [PizzaPage] = []
        /// The current page's position.
        public private(set) var index = 0
        /// Where to open, until the menu holds that pizza.
        public private(set) var start: Start?

        /// The state before the menu arrives.
        ///
        /// - Parameter start: Where to open.
        public init(start: Start?) { self.start = start }

        /// The pizza on the current page.
        public var current: PizzaPage? { pages.indices.contains(index) ? pages[index] : nil }

        /// One thing that happens to the Selector.
        public enum Event: Equatable, Sendable {
            /// The menu arrived or changed.
            case menu([PizzaPage])
            /// A category chip was tapped.
            case toggle(categoryID: Int)
            /// Swipe to the next page (the last stays).
            case next
            /// Swipe to the previous page (the first stays).
            case previous
            /// Jump to a page, when it exists (0-based).
            case select(Int)
        }

        /// The state after `event`.
        ///
        /// - Parameter event: What happened.
        /// - Returns: The next state.
        public func reduced(by event: Event) -> Pages {
            var next = self
            switch event {
            case .menu(let menu):
                next.menu = menu
                next.refilter(keeping: current?.id)
            case .toggle(let categoryID):
                if next.selected.contains(categoryID) { next.selected.remove(categoryID) } else { next.selected.insert(categoryID) }
                next.refilter(keeping: current?.id)
            case .next:
                next.index = min(index + 1, max(pages.count - 1, 0))
            case .previous:
                next.index = max(index - 1, 0)
            case .select(let position):
                if pages.indices.contains(position) { next.index = position }
            }
            return next
        }

        private mutating func refilter(keeping currentID: Int?) {
            let selected = self.selected
            pages = selected.isEmpty ? menu : menu.filter { !selected.isDisjoint(with: $0.categoryIDs) }
            if let start, let position = pages.firstIndex(where: { start.matches($0) }) {
                self.start = nil
                index = position
            } else if let currentID, let position = pages.firstIndex(where: { $0.id == currentID }) {
                index = position
            } else {
                index = 0
            }
        }
    }

    /// What the user does on the Selector, as streams of taps.
    public struct Input {
        /// A category id for each tap on its chip.
        public var toggleCategory: Observable<Int>
        /// A tap on ›.
        public var next: Observable<Void>
        /// A tap on ‹.
        public var previous: Observable<Void>
        /// A position (0-based) for each jump to a page.
        public var select: Observable<Int>
        /// A tap on Add to cart.
        public var addToCart: Observable<Void>

        /// Creates the input; every stream is empty unless given.
        public init(toggleCategory: Observable<Int> = .empty(), next: Observable<Void> = .empty(),
                    previous: Observable<Void> = .empty(), select: Observable<Int> = .empty(),
                    addToCart: Observable<Void> = .empty()) {
            self.toggleCategory = toggleCategory
            self.next = next
            self.previous = previous
            self.select = select
            self.addToCart = addToCart
        }
    }

    /// The state, after each event.
    public let state: Driver<Pages>
    /// The pages shown.
    public let pages: Driver<[PizzaPage]>
    /// The pizza on the current page (`nil` until the menu arrives: the skeleton shows).
    public let currentPage: Driver<PizzaPage?>
    /// The thumbnail strip: every name, the current one in brackets.
    public let thumbnails: Driver<String>
    /// Whether there is a previous page.
    public let canGoBack: Driver<Bool>
    /// Whether there is a next page.
    public let canGoForward: Driver<Bool>
    /// The selected chips.
    public let selectedCategories: Driver<Set<Int>>
    /// The stored pizzas of the selected chips (all of them with none), in one section, as
    /// change sets for ``HeadlessUI/RxTableViewSectionedChangesetDataSource``: the first list,
    /// then what a chip switch or a commit changed.
    ///
    ///     chips: {}──────────────{3}──────────────────────{}
    ///     list:  initial([1…9])──change(deletions: the 8 others)──change(insertions: the 8)
    public let list: Driver<Changeset<SectionModel<String, PizzaPage>>>
    /// Add to cart itself: each tap's add is written to the cart as this output delivers it,
    /// and the element is why it failed, or `nil` when it worked (`nil` at first). Nothing is
    /// added until something drives it (the screen's error line does), and it must be driven
    /// once: a Driver shares one subscription, so two bindings still add once per tap.
    public let addToCart: Driver<String?>

    /// Creates the view model: a pure function of the taps and the menu.
    ///
    /// - Parameters:
    ///   - input: The taps.
    ///   - menu: The menu's pizzas, each time they change (``MenuRepository/pizzas``' lists).
    ///   - pizzas: The stored pizzas, as pages (``MenuRepository/pizzaQuery``): the query the
    ///     chips narrow for ``list``.
    ///   - cart: Where Add to cart writes.
    ///   - start: Where to open.
    public init(input: Input, menu: Observable<[PizzaPage]>, pizzas: ViewModelQuery<Pizza, PizzaPage>, cart: CartRepository, startAt start: Start?) {
        let initial = Pages(start: start)
        state = Observable.merge(
            menu.map(Pages.Event.menu),
            input.toggleCategory.map { Pages.Event.toggle(categoryID: $0) },
            input.next.map { Pages.Event.next },
            input.previous.map { Pages.Event.previous },
            input.select.map(Pages.Event.select))
            .scan(initial) { $0.reduced(by: $1) }
            .startWith(initial)
            .asDriver(onErrorJustReturn: initial)
        pages = state.map(\.pages).distinctUntilChanged()
        currentPage = state.map(\.current).distinctUntilChanged()
        thumbnails = state.map { state in
            state.pages.enumerated().map { $0.offset == state.index ? "[\($0.element.name)]" : $0.element.name }.joined(separator: " · ")
        }
        .distinctUntilChanged()
        canGoBack = state.map { $0.index > 0 }.distinctUntilChanged()
        canGoForward = state.map { $0.index < $0.pages.count - 1 }.distinctUntilChanged()
        selectedCategories = state.map(\.selected).distinctUntilChanged()
        list = selectedCategories
            .map { ids in ids.isEmpty ? pizzas : pizzas.where { $0.categories.id.in(ids) } }
            .observeChanges(on: MainScheduler.instance)
            .map { $0.changeset(section: "pizzas") }
            .asDriver(onErrorDriveWith: .empty())
        addToCart = input.addToCart
            .withLatestFrom(currentPage)
            .map { page -> String? in storeWrite("Could not add the pizza") { if let page { try cart.add(page) } } }
            .startWith(nil)
            .asDriver(onErrorJustReturn: nil)
    }
}

extension SelectorViewModel.Start {
    func matches(_ page: PizzaPage) -> Bool {
        switch self {
        case .id(let id): return page.id == id
        case .named(let name): return page.name.caseInsensitiveCompare(name) == .orderedSame
        }
    }
}
