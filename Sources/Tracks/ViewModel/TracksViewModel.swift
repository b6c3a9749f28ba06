import Foundation
import HeadlessUI
import ObjectStore
import Repository
import Streams

/// What one row of the Tracks table shows.
public struct TrackRow: Equatable, Hashable, Sendable {
    /// The first line: `Title — Artist`, or the artist alone when the track has no title.
    public var title: String
    /// The second line: the short description, or an empty string.
    public var detail: String
    /// The artwork to load, if the track has one.
    public var artworkURL: URL?

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - title: The first line.
    ///   - detail: The second line.
    ///   - artworkURL: The artwork's address.
    public init(title: String, detail: String, artworkURL: URL?) {
        self.title = title
        self.detail = detail
        self.artworkURL = artworkURL
    }

    /// The row for a decoded track.
    ///
    /// - Parameter track: A search result.
    public init(track: Track) {
        let name = track.trackName.flatMap { $0.isEmpty ? nil : $0 }
        self.init(
            title: name.map { "\($0) — \(track.artistName)" } ?? track.artistName,
            detail: track.shortDescription ?? "",
            artworkURL: track.artworkUrl60)
    }
}

/// The Tracks screen's view model: the search's results, page by page, through a
/// ``Repository/PagedList`` over the store. It takes its inputs when it is made and gives
/// `Driver`s, as RxExample's view models do.
///
///     let viewModel = TracksViewModel(
///         input: (loadNextPage: nearTheEnd, retry: tableView.rx.retry.asObservable()),
///         dependency: .init(api: api, term: "midnight"))
///     viewModel.rows.drive(tableView.rx.items(cellIdentifier: "Track", cellType: TrackCell.self)) { … }
///     viewModel.state.drive(tableView.rx.loadState)
///
/// Every subscription to the outputs shares one search (they are `Driver`s: main scheduler,
/// no errors, the latest value replayed). The first page is requested when the first output
/// is subscribed; each `loadNextPage` asks for the next page of ``TracksAPI/limit`` results
/// (one at a time, none once a page came back short); a failed page keeps the rows and the
/// next `loadNextPage` or `retry` asks for it again. Each page is stored before it is shown,
/// so the rows are the store's: the pages stored earlier show at once.
///
///     state:  loading ----- failed(…) ---(retry)--- loading ----- loaded
///     rows:   ------------------------------------------------- [50 rows] --(near the end)-- [100 rows]
public final class TracksViewModel {
    /// What the view model needs besides its inputs.
    public struct Dependency {
        /// The search endpoint; its ``TracksAPI/limit`` is the page size.
        public var api: TracksAPI
        /// What to search for.
        public var term: String
        /// Where the pages are stored (an in-memory store by default).
        public var store: Store
        /// Where the store's lists and the pages' outcomes are delivered (the main scheduler
        /// by default: it queues, as the paged list needs; a test scheduler in tests).
        public var scheduler: ImmediateSchedulerType

        /// Creates the dependencies.
        ///
        /// - Parameters:
        ///   - api: The search endpoint.
        ///   - term: What to search for.
        ///   - store: Where the pages are stored; a new in-memory store by default.
        ///   - scheduler: Where results are delivered; `MainScheduler.asyncInstance` by default.
        public init(api: TracksAPI, term: String, store: Store = Store(), scheduler: ImmediateSchedulerType = MainScheduler.asyncInstance) {
            self.api = api
            self.term = term
            self.store = store
            self.scheduler = scheduler
        }
    }

    /// The term searched for.
    public let term: String
    /// The rows: the stored results of the term, each time they change (never empty while
    /// the first page loads).
    public let rows: Driver<[TrackRow]>
    /// `.loading` until there are rows, `.loaded` once there are (also when a later page
    /// failed), `.failed(message:)` when the first page failed with nothing stored; bind it
    /// to `tableView.rx.loadState`.
    public let state: Driver<ListLoadState>
    /// A one-line summary for a header: `Searching “midnight”…`, `50 results for “midnight”`,
    /// `50 results for “midnight”, loading more…`, or the failure.
    public let header: Driver<String>
    /// `true` while a page after the first is on its way (a spinner below the last row).
    public let isLoadingNextPage: Driver<Bool>

    /// Creates the view model; nothing is requested until an output is subscribed.
    ///
    /// - Parameters:
    ///   - input: `loadNextPage`: the table neared its end; `retry`: Retry was tapped.
    ///   - dependency: The API, the term, the store and the scheduler.
    public init(input: (loadNextPage: Observable<Void>, retry: Observable<Void>), dependency: Dependency) {
        let term = dependency.term
        self.term = term
        let api = dependency.api
        let store = dependency.store
        let query = ViewModelQuery<StoredTrack, TrackRow>(
            store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "position")],
            viewModel: { TrackRow(track: $0.track) }
        ).where { $0.term == term }
        let pages = PagedList(
            local: query.observeAll(on: dependency.scheduler),
            loadNextPage: Observable.merge(input.loadNextPage, input.retry),
            pageSize: api.limit,
            scheduler: dependency.scheduler
        ) { page in
            let offset = (page - 1) * api.limit
            return api.search(term: term, offset: offset).asObservable().map { tracks -> [TrackRow] in
                let stored = tracks.enumerated().map { StoredTrack($1, term: term, position: offset + $0) }
                try store.write { try $0.add(stored, update: .modified) }
                return tracks.map(TrackRow.init(track:))
            }
        }
        let states = pages.states.asDriver(onErrorDriveWith: .empty())
        rows = states.compactMap { $0.loadState.list }.distinctUntilChanged()
        state = states.map { Self.listState($0.loadState) }.distinctUntilChanged()
        header = states.map { Self.header($0, term: term) }.distinctUntilChanged()
        isLoadingNextPage = states.map(\.isLoadingNextPage).distinctUntilChanged()
    }

    /// The table's background for a load state.
    static func listState(_ load: LoadState<TrackRow>) -> ListLoadState {
        switch load {
        case .loading: return .loading
        case .loaded, .stale: return .loaded
        case .failed(let error): return .failed(message: message(for: error))
        }
    }

    /// The header line for a paging state.
    static func header(_ state: PagedList<TrackRow>.State, term: String) -> String {
        let load = state.loadState
        guard let rows = load.list else {
            return load.error.map(message(for:)) ?? "Searching “\(term)”…"
        }
        let count = "\(rows.count) \(rows.count == 1 ? "result" : "results") for “\(term)”"
        if let failure = state.failure { return "\(count); more failed: \(message(for: failure.error))" }
        return state.isLoadingNextPage ? "\(count), loading more…" : count
    }

    /// The sentence the error view shows for a failed search.
    ///
    /// - Parameter error: A ``NetworkError``, a ``TrackDecodingError`` or another error.
    /// - Returns: A short message.
    public static func message(for error: Error) -> String {
        switch error {
        case let error as NetworkError:
            switch error {
            case .unreachable: return "Could not reach the server."
            case .timedOut: return "The search timed out."
            case .badStatus(let code, _): return "The search failed (HTTP \(code))."
            default: return "The search failed (\(error))."
            }
        case let error as TrackDecodingError:
            return "Could not read the results: \(error)."
        default:
            return "The search failed (\(error))."
        }
    }
}
