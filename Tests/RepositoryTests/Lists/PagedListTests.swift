import Foundation
import ObjectStore
import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport

/// A PagedList against a real server on 127.0.0.1: the URLSession network, a `.page` Mapper
/// into a store, a live Query, and triggers sent as a table would send them.
@Suite(.resourceCheck) struct PagedListTests {
    static let pageSize = 20

    /// What a row shows.
    struct BookRow: Hashable {
        let id: Int
        let title: String

        init(_ book: Book) {
            id = book.id
            title = book.title
        }
    }

    /// `/books?page=n` for pages of ids, each answering at once.
    static func routes(_ pages: [[Int]], title: (Int) -> String = { "Book \($0)" }) -> [String: TestHTTPServer.Action] {
        var routes: [String: TestHTTPServer.Action] = [:]
        for (index, ids) in pages.enumerated() {
            routes["/books?page=\(index + 1)"] = .respond(status: 200, body: json(ids, title: title))
        }
        return routes
    }

    static func json(_ ids: [Int], title: (Int) -> String) -> Data {
        Data(("[" + ids.map { #"{"id": \#($0), "title": "\#(title($0))", "shelf": "a", "updated_at": 0}"# }.joined(separator: ",") + "]").utf8)
    }

    /// One launch of the screen: the list, its triggers, and every state it emitted.
    final class Screen {
        let nextPage = PublishSubject<Void>()
        let refresh = PublishSubject<Void>()
        let list: PagedList<BookRow>
        private let lock = NSLock()
        private var recorded: [PagedList<BookRow>.State] = []
        private var subscription: Disposable?
        /// Every state emitted (the main scheduler may be drained on another test's thread).
        var states: [PagedList<BookRow>.State] { lock.withLock { recorded } }

        init(store: Store, server: TestHTTPServer) {
            let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
            let mapper = Mapper<[Book], Book, BookRow>(store: store, covers: .page, models: { $0 }, viewModel: BookRow.init)
            let query = ViewModelQuery<Book, BookRow>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "id")], viewModel: BookRow.init)
            list = PagedList(
                local: query.observeAll(on: MainScheduler.asyncInstance),
                loadNextPage: nextPage.asObservable(),
                refresh: refresh.asObservable(),
                pageSize: PagedListTests.pageSize,
                scheduler: MainScheduler.asyncInstance
            ) { page in
                network.fetch(url: server.url("/books?page=\(page)")).asObservable()
                    .flatMap { mapper.fromJSON($0, on: ImmediateScheduler.instance).asObservable() }
            }
            subscription = list.states.subscribe(onNext: { [unowned self] state in lock.withLock { recorded.append(state) } })
        }

        var last: PagedList<BookRow>.State { states.last! }
        /// Every list shown, in order.
        var lists: [[BookRow]] { states.compactMap(\.list) }

        /// Drains the main scheduler until `condition` holds (30 s at most).
        @discardableResult
        func wait(until condition: (PagedList<BookRow>.State) -> Bool) -> Bool {
            MainScheduler.run(until: { states.last.map(condition) ?? false }, timeout: 30)
        }

        /// Waits until no page is on its way.
        @discardableResult
        func settle() -> Bool { wait { $0.list != nil && $0.loadingPage == nil } }

        func close() {
            subscription?.dispose()
            nextPage.onCompleted()
            refresh.onCompleted()
            _ = MainScheduler.drain()
        }
    }

    static func temporaryStoreURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("paged-\(UUID().uuidString).store")
    }

    @Test func pagesAccumulateAndTheEndStopsRequests() throws {
        let server = try TestHTTPServer(routes: Self.routes([Array(1...20), Array(21...40), Array(41...45)]))
        defer { server.stop() }
        let screen = Screen(store: try makeBookStore(), server: server)
        defer { screen.close() }
        #expect(screen.settle())
        #expect(screen.last.list?.map(\.id) == Array(1...20))
        screen.nextPage.onNext(())
        #expect(screen.wait { $0.list?.count == 40 && $0.loadingPage == nil })
        screen.nextPage.onNext(())
        #expect(screen.wait { $0.list?.count == 45 && $0.loadingPage == nil })
        #expect(screen.last.isEndReached)
        for _ in 0..<3 { screen.nextPage.onNext(()) }
        _ = MainScheduler.drain()
        #expect(screen.last.request == nil)
        #expect(server.requests == ["GET /books?page=1", "GET /books?page=2", "GET /books?page=3"])
        #expect(screen.last.loadState == .loaded(screen.last.list!, origin: .network))
    }

    @Test func storedPagesSurviveRelaunchAndRefreshWithoutFlicker() throws {
        let url = Self.temporaryStoreURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let server = try TestHTTPServer(routes: Self.routes([Array(1...20), Array(21...40), Array(41...60)]))
        defer { server.stop() }
        do {   // First launch: two pages.
            let store = try Store(configuration: .file(url: url, objectTypes: [Book.self]))
            let screen = Screen(store: store, server: server)
            #expect(screen.settle())
            screen.nextPage.onNext(())
            #expect(screen.wait { $0.list?.count == 40 && $0.loadingPage == nil })
            screen.close()
        }
        // The server's page 1 changed since: every refresh writes new titles.
        server.setRoute(.respond(status: 200, body: Self.json(Array(1...20)) { "Book \($0), 2nd edition" }), for: "/books?page=1")
        let store = try Store(configuration: .file(url: url, objectTypes: [Book.self]))
        let screen = Screen(store: store, server: server)
        defer { screen.close() }
        // Relaunch: both stored pages at once, from the store.
        #expect(screen.wait { $0.list != nil })
        #expect(screen.lists.first?.count == 40)
        #expect(screen.states.first { $0.list != nil }?.loadState == .loaded(screen.lists[0], origin: .local))
        #expect(screen.wait { $0.loadingPage == nil && $0.list?.first?.title == "Book 1, 2nd edition" })
        server.setRoute(.respond(status: 200, body: Self.json(Array(1...20)) { "Book \($0), 3rd edition" }), for: "/books?page=1")
        screen.refresh.onNext(())
        #expect(screen.last.isRefreshing)
        #expect(screen.wait { $0.loadingPage == nil && $0.list?.first?.title == "Book 1, 3rd edition" })
        // No list shown since the relaunch was shorter than the stored one.
        #expect(screen.lists.count >= 3)
        #expect(screen.lists.allSatisfy { $0.count == 40 }, "\(screen.lists.map(\.count))")
        #expect(storedBookIDs(store) == Array(1...40))
        // Page 2 is the next one after a refresh, then page 3.
        screen.nextPage.onNext(())
        #expect(screen.wait { $0.loadingPage == nil && $0.pagesLoaded == 2 })
        screen.nextPage.onNext(())
        #expect(screen.wait { $0.list?.count == 60 && $0.loadingPage == nil })
        #expect(server.requestCount("/books?page=1") == 3)
    }

    @Test func aFailingPageKeepsTheRowsAndRetryLoadsIt() throws {
        let server = try TestHTTPServer(routes: Self.routes([Array(1...20)]).merging([
            "/books?page=2": .respond(status: 500, body: Data("down".utf8)),
        ]) { $1 })
        defer { server.stop() }
        let screen = Screen(store: try makeBookStore(), server: server)
        defer { screen.close() }
        #expect(screen.settle())
        screen.nextPage.onNext(())
        #expect(screen.wait { $0.failure != nil })
        let failed = screen.last
        #expect(failed.failure?.page == 2)
        #expect(failed.list?.count == 20)
        guard case .stale(let kept, let error)? = Optional(failed.loadState), case .badStatus(500, _)? = error as? NetworkError else {
            Issue.record("expected stale(20 rows, HTTP 500), got \(failed.loadState)")
            return
        }
        #expect(kept.count == 20)
        server.setRoute(.respond(status: 200, body: Self.json(Array(21...40)) { "Book \($0)" }), for: "/books?page=2")
        screen.nextPage.onNext(())      // the Retry button
        #expect(screen.last.failure == nil && screen.last.isLoadingNextPage)
        #expect(screen.wait { $0.list?.count == 40 && $0.loadingPage == nil })
        // The empty store first, then never fewer than page 1's rows.
        #expect(screen.lists.first == [])
        #expect(screen.lists.dropFirst().allSatisfy { $0.count >= 20 }, "\(screen.lists.map(\.count))")
        #expect(server.requestCount("/books?page=2") == 2)
    }

    // MARK: The loop on a TestScheduler

    @Test func aFetchThatEndsWithoutAPageIsTheEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let list = PagedList<Int>(local: .just([]), loadNextPage: .never(), scheduler: scheduler) { _ in .empty() }
        let states = scheduler.start { list.states.map { "\($0.loadState) end:\($0.isEndReached)" } }
        #expect(states.events.map { $0.value.element } == ["loading end:false", "loading end:false", "loaded(0, network) end:true"])
    }

    @Test func subscribersShareOneFetchPerPageAndARefreshCancelsAPageOnItsWay() {
        let scheduler = TestScheduler(initialClock: 0)
        var fetched: [Int] = [], disposed: [Int] = []
        let refresh = scheduler.createHotObservable([.next(260, ())])
        let next = scheduler.createHotObservable([.next(250, ())])
        let list = PagedList<Int>(local: .just([1, 2]), loadNextPage: next.asObservable(), refresh: refresh.asObservable(),
                                  pageSize: 2, scheduler: scheduler) { page in
            fetched.append(page)
            return Observable.just([2 * page - 1, 2 * page]).delay(.seconds(20), scheduler: scheduler)
                .do(onDispose: { disposed.append(page) })
        }
        let other = scheduler.createObserver(Int.self)
        var second: Disposable?
        scheduler.scheduleAt(200) { second = list.states.map(\.pagesLoaded).subscribe(other) }
        scheduler.scheduleAt(1000) { second?.dispose() }
        let res = scheduler.start { list.states.map(\.pagesLoaded) }
        // Page 1 at 200 (once for both subscribers), page 2 asked at 250 and cancelled by the
        // refresh at 260, page 1 again.
        #expect(fetched == [1, 2, 1])
        #expect(disposed.prefix(2) == [1, 2])
        #expect(res.events.last?.value.element == 1)
        #expect(other.events.last?.value.element == 1)
    }
}
