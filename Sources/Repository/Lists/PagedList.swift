import Foundation
import Streams

/// A paged endpoint shown as one stored list: the first page at once, the next page when the
/// user nears the end, nothing more once the end is reached, a refresh that reloads page 1,
/// and a failed page that keeps the rows shown and can be retried. The stored list is the
/// source of truth: every page is written to the store (with ``ResponseCoverage/page``, so no
/// page deletes another's rows) and the screen shows what the store holds, so the pages stored
/// before a relaunch show at once and a refresh never shortens or flickers the list.
///
///     let books = PagedList(
///         local: query.observeAll(on: MainScheduler.asyncInstance),
///         loadNextPage: tableView.rx.willDisplayCell
///             .filter { $0.indexPath.row >= tableView.numberOfRows(inSection: 0) - 5 }
///             .map { _ in () },
///         refresh: refreshButton.rx.tap.asObservable(),
///         pageSize: 20
///     ) { page in
///         network.fetch(url: booksURL(page: page)).asObservable()
///             .flatMap { mapper.fromJSON($0, on: background, covering: .page).asObservable() }
///     }
///     books.states.map(\.loadState)       // loading, loaded, stale, failed: as LocalFirstList
///
/// It is a feedback loop, as RxFeedback's `system` builds one: the inputs and each page's
/// outcome are reduced into a ``State`` (pure, tested without subscribing), and the state's
/// ``State/request`` runs the page fetch, whose outcome is an input again:
///
///     merge(local, loadNextPage, refresh, pages)
///       .scan(State()) { $0.reduced(by: $1) }          // the rules, a pure value
///     pages = states.map(\.request).distinctUntilChanged()
///       .flatMapLatest { fetch($0.page) → pageLoaded | pageFailed }   // a refresh cancels a page
///       .observe(on: scheduler)                        // outcomes never re-enter the reducer
///
/// Errors are values (``State/failure``, ``LoadState/stale(_:error:)``); the stream itself does
/// not fail.
public final class PagedList<Element: Hashable>: @unchecked Sendable {
    /// The states, one per input: the stored list, the page on its way, whether the end is
    /// reached, the last failure. Shared by every subscriber (one fetch per page for all),
    /// replaying the latest. Subscribing asks for page 1.
    ///
    ///     local:         -[20 stored]----------------[40]--------------
    ///     loadNextPage:  ------------------------x--------------------
    ///     states:        S-S--------S(page 1 in)--S(2 asked)--S([40])-
    public let states: Observable<State>

    /// Creates the list.
    ///
    /// - Parameters:
    ///   - local: The stored elements, live (emits again when the store changes), delivered on
    ///     `scheduler`.
    ///   - loadNextPage: Each element asks for the next page (the table neared its end; a
    ///     Retry button after a failed page).
    ///   - refresh: Each element reloads page 1 (pull to refresh); nothing by default.
    ///   - scheduler: Where page outcomes are delivered: a scheduler that queues, so that an
    ///     outcome never re-enters the rules while they run (`MainScheduler.asyncInstance` by
    ///     default; a serial queue, or a test scheduler in tests).
    ///   - fetchPage: Fetches page `n` (from 1), stores it with ``ResponseCoverage/page``, and
    ///     gives its elements and whether it is the last. Its first element is the page (a
    ///     fetch that completes with none is an empty last page); an error is the page's
    ///     ``State/failure``.
    public init(
        local: Observable<[Element]>,
        loadNextPage: Observable<Void>,
        refresh: Observable<Void> = .never(),
        scheduler: ImmediateSchedulerType = MainScheduler.asyncInstance,
        fetchPage: @escaping (Int) -> Observable<Page<Element>>
    ) {
        states = Observable.deferred {
            // The latest state, fed back to the page fetches: the loop's one piece of shared
            // state, private to this subscription.
            let fedBack = ReplaySubject<State>.create(bufferSize: 1)
            let pages = fedBack
                .map(\.request)
                .distinctUntilChanged()
                .flatMapLatest { request -> Observable<Input> in
                    guard let request else { return .empty() }
                    return fetchPage(request.page)
                        .take(1)
                        .ifEmpty(default: Page([], isLast: true))
                        .map { Input.pageLoaded(request.page, $0) }
                        .catch { .just(.pageFailed(request.page, $0)) }
                        .observe(on: scheduler)
                }
            return Observable.merge(
                local.map(Input.local),
                loadNextPage.map { Input.loadNextPage },
                refresh.map { Input.refresh },
                pages
            )
            .scan(State()) { $0.reduced(by: $1) }
            .startWith(State())
            .do(onNext: { fedBack.onNext($0) }, onDispose: { fedBack.onCompleted() })
        }
        .share(replay: 1)
    }

    /// Creates the list for an endpoint whose pages hold `pageSize` elements: a shorter page
    /// is the last.
    ///
    /// - Parameters:
    ///   - local: The stored elements, live, delivered on `scheduler`.
    ///   - loadNextPage: Each element asks for the next page.
    ///   - refresh: Each element reloads page 1; nothing by default.
    ///   - pageSize: How many elements a full page holds.
    ///   - scheduler: Where page outcomes are delivered: a scheduler that queues
    ///     (`MainScheduler.asyncInstance` by default).
    ///   - fetchPage: Fetches page `n` (from 1), stores it, and gives its elements.
    public convenience init(
        local: Observable<[Element]>,
        loadNextPage: Observable<Void>,
        refresh: Observable<Void> = .never(),
        pageSize: Int,
        scheduler: ImmediateSchedulerType = MainScheduler.asyncInstance,
        fetchPage: @escaping (Int) -> Observable<[Element]>
    ) {
        self.init(local: local, loadNextPage: loadNextPage, refresh: refresh, scheduler: scheduler) { page in
            fetchPage(page).map { Page($0, pageSize: pageSize) }
        }
    }

    /// The stored list alone, each time it changes (never before the store answered).
    ///
    ///     states:  S(nil)--S([a])--S([a], loading 2)--S([a,b])-
    ///     all():   --------[a]------------------------[a,b]----
    ///
    /// - Returns: The lists, sharing the subscription of ``states``.
    public func all() -> Observable<[Element]> {
        states.compactMap(\.list).distinctUntilChanged()
    }
}
