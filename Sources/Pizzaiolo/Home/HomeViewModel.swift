import Foundation
import HeadlessUI
import Repository
import Streams

/// Home's state: the featured cards (the menu's ``MenuRepository/featured`` Manager, local
/// first then fresh) and what to show around them, all from the Manager's one
/// ``Repository/ResourceStatus``.
///
///     status:  loading ── loaded(local) ── stale(offline) ──(reload)── loading ── loaded(network)
///     cards:   ───────── [a, b, c] ─────────────────────────────────────────────── [a, b, c']
///     banner:  nil ───────────────── "Offline: …" ─────────────────── nil
///
/// Every output is a `Driver`: they share one subscription to the Manager, which starts when
/// the screen binds them; ``reload`` subscribes again (the network is asked again).
public final class HomeViewModel {
    /// The cards shown.
    public let cards: Driver<[FeaturedCard]>
    /// Whether the spinner turns: loading with no card to show.
    public let isLoading: Driver<Bool>
    /// The table's background: the error view with Retry when the load failed with nothing to
    /// show, none otherwise (the spinner, not a skeleton, shows loading).
    public let loadState: Driver<ListLoadState>
    /// A banner when the network failed but stored cards are shown.
    public let banner: Driver<String?>
    /// Send `()` to load again (the error view's Retry, and a pull to refresh): the cards, and
    /// the rest of the menu with them (``MenuRepository/refresh()``).
    public let reload: AnyObserver<Void>

    init(menu: MenuRepository) {
        let reloads = PublishSubject<Void>()
        reload = AnyObserver { [weak menu] event in
            guard case .next = event else { return }
            reloads.onNext(())
            menu?.refresh()
        }
        let featured = menu.featured
        cards = reloads.startWith(())
            .flatMapLatest { featured.all().catch { _ in .empty() } }   // a failure is in the status
            .asDriver(onErrorJustReturn: [])
        let status = featured.status.asDriver(onErrorJustReturn: .loading)
        isLoading = Driver.combineLatest(cards.startWith([]), status) { cards, status in
            cards.isEmpty && status == .loading
        }
        .distinctUntilChanged()
        loadState = status.map { status -> ListLoadState in
            if case .failed = status { return .failed(message: "No connection to the kitchen") }
            return .loaded
        }
        .distinctUntilChanged()
        banner = status.map { status -> String? in
            if case .stale = status { return "Offline: showing the menu from your last visit" }
            return nil
        }
        .distinctUntilChanged()
    }
}
