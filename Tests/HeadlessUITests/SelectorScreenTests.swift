import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

/// A screen in the Pizzaiolo shape: a list of pizzas with photos, a skeleton while the first
/// load runs, an error view with Retry only when nothing is on screen, and prices in cents.
final class SelectorScreen: ViewController {
    struct Row: Equatable {
        let name: String
        let cents: Int
        let imageURL: URL
    }

    let loads: () -> Observable<[Row]>
    let images: ImageProviding
    let table = TableView(height: 132, rowHeight: 44)
    private let rows = BehaviorRelay<[Row]>(value: [])
    private let state = BehaviorRelay<ListLoadState>(value: .loading)
    private let retries = PublishSubject<Void>()

    init(loads: @escaping () -> Observable<[Row]>, images: ImageProviding) {
        self.loads = loads
        self.images = images
        super.init()
        title = "Pizzas"
    }

    override func viewDidLoad() {
        view.addSubview(table)
        table.register(PizzaCell.self, forCellReuseIdentifier: "Pizza")
        let images = self.images
        rows.asDriver()
            .drive(table.rx.items(cellIdentifier: "Pizza", cellType: PizzaCell.self)) { _, row, cell in
                cell.name.text = "\(row.name) $\(row.cents / 100).\(String(format: "%02d", row.cents % 100))"
                cell.photo.load(row.imageURL, from: images, placeholder: placeholder)
            }
            .disposed(by: disposeBag)
        state.asDriver().drive(table.rx.loadState(retry: retries)).disposed(by: disposeBag)
        retries.subscribe(onNext: { [weak self] in self?.load() }).disposed(by: disposeBag)
        load()
    }

    private func load() {
        let rows = self.rows, state = self.state
        if rows.value.isEmpty { state.accept(.loading) }
        loads().subscribe(onNext: { loaded in
            rows.accept(loaded)
            state.accept(.loaded)
        }, onError: { _ in
            // Errors only show when nothing is on screen.
            if rows.value.isEmpty { state.accept(.failed(message: "Could not load the menu")) }
        }).disposed(by: disposeBag)
    }
}

@MainActor @Suite(.resourceCheck) struct SelectorScreenTests {
    @Test func loadingFailureRetryListAndImages() {
        var requests: [PublishSubject<[SelectorScreen.Row]>] = []
        let images = FakeImageProvider()
        let baseline = Resources.total
        weak var weakScreen: SelectorScreen?
        var navigation: NavigationController? = Headless.run {
            let screen = SelectorScreen(loads: {
                let request = PublishSubject<[SelectorScreen.Row]>()
                requests.append(request)
                return request.asObservable()
            }, images: images)
            weakScreen = screen
            return NavigationController(rootViewController: screen)
        }
        #expect(navigation?.render() == """
        <Pizzas>
        == Pizzas ==
        View
          TableView 0 rows, offset 0
            SkeletonView ░░░░░░ ×3 'Loading'
        """)

        // The first load fails with nothing on screen: the error view with Retry.
        Headless.run { requests[0].onError(TestError.boom) }
        #expect(navigation?.render().contains("Label \"Could not load the menu\"") == true)

        // Retry succeeds: the rows, with placeholders until their photos arrive.
        Headless.run { (weakScreen?.table.backgroundView as? NetworkErrorView)?.retryButton.tap() }
        #expect(requests.count == 2)
        let menu = ["Margherita": 899, "Marinara": 750, "Diavola": 1099, "Quattro Formaggi": 1250].sorted { $0.key < $1.key }
        let rows = menu.enumerated().map { index, entry in
            SelectorScreen.Row(name: entry.key, cents: entry.value, imageURL: FakeImageProvider.url(index))
        }
        Headless.run { requests[1].onNext(rows) }
        images.respond(to: FakeImageProvider.url(0))
        Headless.drain()
        #expect(navigation?.render() == """
        <Pizzas>
        == Pizzas ==
        View
          TableView 4 rows, offset 0
            PizzaCell [0,0]
              Label "Diavola $10.99"
              ImageView [image row0 4×4]
            PizzaCell [0,1]
              Label "Margherita $8.99"
              ImageView [image placeholder 4×4]
            PizzaCell [0,2]
              Label "Marinara $7.50"
              ImageView [image placeholder 4×4]
        """)

        // A later failure keeps what is on screen.
        Headless.run { requests[1].onError(TestError.boom) }
        #expect(weakScreen?.table.backgroundView == nil)

        // Dismissing the screen releases everything it held.
        Headless.run { navigation = nil }
        #expect(weakScreen == nil)
        requests.forEach { $0.dispose() }
        #expect(Resources.total == baseline)
    }
}
