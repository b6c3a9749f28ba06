extension PagedList {
    /// One event the paging rules react to.
    public enum Input {
        /// The store's list (first at subscription, then after each change).
        case local([Element])
        /// The user neared the end of the list: load the next page (or retry a failed one).
        case loadNextPage
        /// Reload from the first page (pull to refresh).
        case refresh
        /// Page `page` was fetched and stored.
        case pageLoaded(Int, Page<Element>)
        /// Fetching or storing page `page` failed.
        case pageFailed(Int, Error)
    }

    /// A page that failed, and why; kept until the page is asked for again.
    public struct PageFailure {
        /// The page number (the first page is 1).
        public let page: Int
        /// What went wrong: usually a `NetworkError` or a `MapperError`.
        public let error: Error
    }

    /// The rules of a paged list, as a value: ``reduced(by:)`` takes each ``Input`` and gives
    /// the next state. Pure, so the rules are tested without subscribing:
    ///
    ///     State()                                   // page 1 on its way
    ///         .reduced(by: .local(stored))          // the stored pages, shown at once
    ///         .reduced(by: .pageLoaded(1, page))    // page 1 stored: the next page is 2
    ///         .reduced(by: .loadNextPage)           // page 2 on its way
    ///
    /// - The list is the store's: pages only write to the store, so a refresh of page 1 never
    ///   shortens what is shown, and the pages stored before a relaunch show at once.
    /// - One page loads at a time: ``Input/loadNextPage`` while a page loads (or before the
    ///   rows of the page just stored reached the list), or once the end is reached, does
    ///   nothing; ``Input/refresh`` cancels a page on its way and loads page 1.
    /// - The next page is the one after the last page fetched since the list was subscribed
    ///   (page 1 first), so after a relaunch the stored later pages are fetched again, in turn,
    ///   as the user nears them.
    /// - A failed page is kept in ``failure`` with the rows still shown; the next
    ///   ``Input/loadNextPage`` asks for that page again (a Retry button sends one).
    public struct State {
        /// The stored list, or `nil` until the store answered.
        public private(set) var list: [Element]?
        /// The pages fetched since the list was subscribed (the next page is this plus one).
        public private(set) var pagesLoaded = 0
        /// The page being fetched, or stored and not yet in the list; `nil` when none is.
        public private(set) var loadingPage: Int?
        /// `true` once a page said it was the last: ``Input/loadNextPage`` does nothing.
        public private(set) var isEndReached = false
        /// The last page that failed, until it is asked for again.
        public private(set) var failure: PageFailure?
        /// The page to fetch now, numbered so that asking for the same page again is a new
        /// request; `nil` when nothing should be fetched.
        public private(set) var request: Request?

        /// A fetch the list asks for: the page and a number unique to this request.
        public struct Request: Equatable {
            /// The page to fetch (the first page is 1).
            public let page: Int
            /// Counts requests, so that a retry of the same page is a new one.
            public let id: Int
        }

        /// The state of a list just subscribed: page 1 is asked for.
        public init() {
            ask(for: 1)
        }

        /// The page a ``Input/loadNextPage`` would fetch, or `nil` once the end is reached.
        public var nextPage: Int? { isEndReached ? nil : pagesLoaded + 1 }

        /// `true` while a page after the first is on its way (a spinner below the last row).
        public var isLoadingNextPage: Bool { (loadingPage ?? 0) > 1 }

        /// `true` while page 1 is on its way (a refresh control spinning).
        public var isRefreshing: Bool { loadingPage == 1 }

        /// What the screen shows, with ``LocalFirstList``'s cases: `loading` until there is a
        /// list (or while the first page of an empty store loads), `loaded` (from the store
        /// until a page was fetched, then from the network), `stale` with the rows kept when
        /// a page failed, `failed` when it failed with nothing stored.
        public var loadState: LoadState<Element> {
            guard let list else { return .loading }
            if let failure {
                return list.isEmpty ? .failed(failure.error) : .stale(list, error: failure.error)
            }
            if list.isEmpty && loadingPage != nil { return .loading }
            return .loaded(list, origin: pagesLoaded > 0 ? .network : .local)
        }

        /// The state after `input`.
        ///
        /// - Parameter input: One event.
        /// - Returns: The next state.
        public func reduced(by input: Input) -> State {
            var next = self
            next.reduce(input)
            return next
        }

        private mutating func reduce(_ input: Input) {
            switch input {
            case .local(let stored):
                list = stored
                if request == nil { loadingPage = nil }
            case .loadNextPage:
                guard loadingPage == nil, let page = nextPage else { return }
                ask(for: page)
            case .refresh:
                ask(for: 1)
            case .pageLoaded(let page, let result):
                guard request?.page == page else { return }
                request = nil
                pagesLoaded = page
                isEndReached = result.isLast
                failure = nil
                if isShown(result.elements) { loadingPage = nil }
            case .pageFailed(let page, let error):
                guard request?.page == page else { return }
                request = nil
                loadingPage = nil
                failure = PageFailure(page: page, error: error)
            }
        }

        private mutating func ask(for page: Int) {
            lastRequestID += 1
            request = Request(page: page, id: lastRequestID)
            loadingPage = page
            failure = nil
        }

        private var lastRequestID = 0

        /// Whether every element is in the list already (then the store will not change).
        private func isShown(_ elements: [Element]) -> Bool {
            guard !elements.isEmpty else { return true }
            guard let list else { return false }
            let shown = Set(list)
            return elements.allSatisfy(shown.contains)
        }
    }
}
