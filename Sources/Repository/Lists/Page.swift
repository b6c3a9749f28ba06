/// One page of a paged endpoint, as a ``PagedList`` receives it: the page's elements (already
/// stored) and whether the server has more after it.
///
///     Page(books, isLast: body.next == nil)       // the body says whether more follow
///     Page(books, pageSize: 20)                   // a short page is the last one
public struct Page<Element> {
    /// The page's elements, in the server's order, already written to the store.
    public var elements: [Element]
    /// `true` when no page follows this one: the end of the list is reached.
    public var isLast: Bool

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - elements: The page's elements.
    ///   - isLast: Whether no page follows.
    public init(_ elements: [Element], isLast: Bool) {
        self.elements = elements
        self.isLast = isLast
    }

    /// Creates a page that is the last one when it holds fewer than `pageSize` elements (an
    /// empty page is always the last).
    ///
    /// - Parameters:
    ///   - elements: The page's elements.
    ///   - pageSize: How many elements a full page holds.
    public init(_ elements: [Element], pageSize: Int) {
        self.init(elements, isLast: elements.isEmpty || elements.count < pageSize)
    }
}

extension Page: Sendable where Element: Sendable {}
extension Page: Equatable where Element: Equatable {}
