import Foundation
import HeadlessUI
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

/// The Tracks screen's view model: searches once, exposes the rows and the loading state, and
/// searches again on retry.
///
///     let viewModel = TracksViewModel(api: api, term: "midnight")
///     viewModel.rows.drive(tableView.rx.items(cellIdentifier: "Track", cellType: TrackCell.self)) { … }
///     viewModel.state.drive(tableView.rx.loadState(retry: viewModel.retry))
///
/// Every subscription to the outputs shares one search (they are `Driver`s: main scheduler,
/// no errors, the latest value replayed). The search starts when the first output is
/// subscribed and each ``retry`` starts a new one, cancelling one still running.
///
///     state:  loading ----- failed(…) ---(retry)--- loading ----- loaded
///     rows:   ------------------------------------------------- [rows]
public final class TracksViewModel {
    /// The term searched for.
    public let term: String
    /// The rows, each time a search succeeds.
    public let rows: Driver<[TrackRow]>
    /// `.loading` while a search runs, `.loaded` after it succeeds, `.failed(message:)` when
    /// it failed; bind it to ``HeadlessUI/Reactive/loadState(retry:)``.
    public let state: Driver<ListLoadState>
    /// A one-line summary for a header: `Searching “midnight”…`, `200 results for “midnight”`
    /// or the failure.
    public let header: Driver<String>
    /// Send `()` to search again (the error view's Retry button does).
    public let retry: AnyObserver<Void>

    private let retries = PublishSubject<Void>()

    /// One search's progress.
    enum Load: Equatable {
        case loading
        case loaded([TrackRow])
        case failed(String)
    }

    /// Creates the view model; nothing is requested until an output is subscribed.
    ///
    /// - Parameters:
    ///   - api: The search endpoint.
    ///   - term: What to search for.
    public init(api: TracksAPI, term: String) {
        self.term = term
        retry = retries.asObserver()
        let loads: Driver<Load> = retries.asObservable()
            .startWith(())
            .flatMapLatest { _ -> Observable<Load> in
                api.search(term: term).asObservable()
                    .map { Load.loaded($0.map(TrackRow.init(track:))) }
                    .catch { error in Observable.just(Load.failed(Self.message(for: error))) }
                    .startWith(.loading)
            }
            .asDriver(onErrorJustReturn: .failed("The search stopped unexpectedly."))
        rows = loads.compactMap { load in
            if case .loaded(let rows) = load { return rows }
            return nil
        }
        state = loads.map { load in
            switch load {
            case .loading: return .loading
            case .loaded: return .loaded
            case .failed(let message): return .failed(message: message)
            }
        }
        header = loads.map { load in
            switch load {
            case .loading: return "Searching “\(term)”…"
            case .loaded(let rows): return "\(rows.count) \(rows.count == 1 ? "result" : "results") for “\(term)”"
            case .failed(let message): return message
            }
        }
    }

    deinit { retries.onCompleted() }

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
