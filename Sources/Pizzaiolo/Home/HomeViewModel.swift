import Foundation
import HeadlessUI
import Repository
import Streams

/// Home's state: the featured cards and what to show around them, all from the menu's one
/// stream of load states (``Repository/LoadState``).
///
///     featured:  loading ─ loaded([a, b, c]) ─ stale([a, b, c], offline) ─ loading ─ loaded([a, b, c'])
///     cards:     ───────── [a, b, c] ──────────────────────────────────────────────── [a, b, c']
///     banner:    nil ───────────────────────── "Offline: …" ──────────── nil
///
/// A pure function of its input: every output is a `Driver` of `featured`, sharing its one
/// subscription. Retry is not here: the error view's Retry button is the app's one reload
/// input, which makes `featured` start again from `loading`.
public final class HomeViewModel {
    /// The cards shown: once per load (a reload shows its list again, so cells whose photo
    /// failed offline load it again), and again when the list changes. The last list stays
    /// while a reload runs.
    public let cards: Driver<[FeaturedCard]>
    /// Whether the spinner turns: loading with no card to show.
    public let isLoading: Driver<Bool>
    /// The table's background: the error view with Retry when the load failed with nothing to
    /// show, none otherwise (the spinner, not a skeleton, shows loading).
    public let loadState: Driver<ListLoadState>
    /// A banner when the network failed but stored cards are shown.
    public let banner: Driver<String?>

    /// Creates the view model.
    ///
    /// - Parameter featured: The cards' load states (``MenuRepository/featured``'s).
    public init(featured: Observable<LoadState<FeaturedCard>>) {
        let state = featured.asDriver(onErrorRecover: { .just(.failed($0)) })
        cards = state.distinctUntilChanged(\.list).compactMap(\.list)
        isLoading = state.scan((loading: true, shown: false)) { last, state in
            (state == .loading, last.shown || state.list != nil)
        }
        .map { $0.loading && !$0.shown }
        .distinctUntilChanged()
        loadState = state.map { state -> ListLoadState in
            if case .failed = state { return .failed(message: "No connection to the kitchen") }
            return .loaded
        }
        .distinctUntilChanged()
        banner = state.map { state -> String? in
            if case .stale = state { return "Offline: showing the menu from your last visit" }
            return nil
        }
        .distinctUntilChanged()
    }
}
