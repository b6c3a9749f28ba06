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
/// A pure function of its input: ``state`` is the one `Driver` of `featured`, and every other
/// output is made from it (the screen binds each to its view), so all of them share one
/// subscription. ``background`` is one `map` of it and repeats `.loaded` ("no background")
/// for every state but a failure, loading included (the spinner shows loading); ``cards`` drops a list equal to the
/// one shown (the same cards, now from the network or stale), so the table does not reload
/// for nothing. Retry is not here: the error view's Retry is the menu's reload input
/// (``MenuRepository/reload``), which makes `featured` start again from `loading`.
public final class HomeViewModel {
    /// The cards' load states, as a `Driver`: what every other output is made of.
    public let state: Driver<LoadState<FeaturedCard>>
    /// The cards shown: once per load (a reload shows its list again, so cells whose photo
    /// failed offline load it again), and again when the list changes. The last list stays
    /// while a reload runs.
    public let cards: Driver<[FeaturedCard]>
    /// Whether the spinner turns: loading with no card to show.
    public let isLoading: Driver<Bool>
    /// The table's background view, for each state: the error view with Retry when the load
    /// failed with nothing to show, none (`.loaded`) otherwise, also while loading: the spinner,
    /// not a skeleton, shows loading.
    public let background: Driver<ListLoadState>
    /// A banner when the network failed but stored cards are shown.
    public let banner: Driver<String?>

    /// The error view's message.
    public static let failureMessage = "No connection to the kitchen"
    /// The stale-data banner.
    public static let staleMessage = "Offline: showing the menu from your last visit"

    /// Creates the view model.
    ///
    /// - Parameter featured: The cards' load states (``MenuRepository/featured``'s).
    public init(featured: Observable<LoadState<FeaturedCard>>) {
        state = featured.asDriver(onErrorRecover: { .just(.failed($0)) })
        cards = state.distinctUntilChanged(\.list).compactMap(\.list)
        isLoading = state.scan((loading: true, shown: false)) { last, state in
            (state == .loading, last.shown || state.list != nil)
        }
        .map { $0.loading && !$0.shown }
        .distinctUntilChanged()
        background = state.map { state -> ListLoadState in
            if case .failed = state { return .failed(message: Self.failureMessage) }
            return .loaded
        }
        banner = state.map { state -> String? in
            if case .stale = state { return Self.staleMessage }
            return nil
        }
        .distinctUntilChanged()
    }
}
