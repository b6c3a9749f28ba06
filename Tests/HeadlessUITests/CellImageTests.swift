import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

let placeholder = Image(width: 4, height: 4, color: .init(r: 0, g: 0, b: 0, a: 0), name: "placeholder")

/// A table of `rows` pizzas whose cells load `FakeImageProvider.url(row)`.
@MainActor
final class ImageTableScreen {
    let table: TableView
    let provider = FakeImageProvider()
    let prefetcher: ImagePrefetcher
    let bag = DisposeBag()

    init(rows: Int, height: Double = 440, rowHeight: Double = 44, prefetchDistance: Int = 0) {
        table = TableView(height: height, rowHeight: rowHeight)
        table.register(PizzaCell.self, forCellReuseIdentifier: "Pizza")
        prefetcher = ImagePrefetcher(provider: provider) { FakeImageProvider.url($0.row) }
        table.prefetchDataSource = prefetcher
        table.prefetchDistance = prefetchDistance
        let provider = self.provider
        Headless.run {
            Observable.just(Array(0..<rows))
                .bind(to: table.rx.items(cellIdentifier: "Pizza", cellType: PizzaCell.self)) { row, _, cell in
                    cell.name.text = "pizza \(row)"
                    cell.photo.load(FakeImageProvider.url(row), from: provider, placeholder: placeholder)
                }
                .disposed(by: bag)
        }
    }

    func photo(_ row: Int) -> Image? {
        (table.cellForRow(at: IndexPath(row: row, section: 0)) as? PizzaCell)?.photo.image
    }
}

@MainActor @Suite(.resourceCheck) struct CellImageTests {
    @Test func placeholderFirstThenTheImageOnTheMainScheduler() {
        let screen = ImageTableScreen(rows: 20, height: 88)
        #expect(screen.photo(0) == placeholder)
        #expect(screen.provider.requested == [FakeImageProvider.url(0), FakeImageProvider.url(1)])
        let provider = screen.provider
        onAnotherThread { provider.respond(to: FakeImageProvider.url(1)) }
        // Delivered off the main scheduler: nothing changes until it runs.
        #expect(screen.photo(1) == placeholder)
        Headless.drain()
        #expect(screen.photo(1) == FakeImageProvider.image(for: FakeImageProvider.url(1)))
        #expect(screen.photo(0) == placeholder)
    }

    @Test func aLateImageNeverLandsInAReusedCell() {
        let screen = ImageTableScreen(rows: 20, height: 44)
        let cell = screen.table.cellForRow(at: IndexPath(row: 0, section: 0)) as? PizzaCell
        // The response for row 0 is on its way to the main scheduler…
        screen.provider.respond(to: FakeImageProvider.url(0))
        // …but the user scrolls first: the same cell now shows row 1.
        screen.table.scroll(to: 44)
        #expect(cell?.indexPath == IndexPath(row: 1, section: 0))
        Headless.drain()
        #expect(cell?.photo.image == placeholder)
        #expect(cell?.name.text == "pizza 1")
    }

    @Test func theStaleRequestIsCancelledOnReuse() {
        let screen = ImageTableScreen(rows: 20, height: 44)
        #expect(screen.provider.inFlight == 1)
        screen.table.scroll(to: 44)
        #expect(screen.provider.cancelled == [FakeImageProvider.url(0)])
        #expect(screen.provider.pending.map(\.url) == [FakeImageProvider.url(1)])
    }

    @Test func aCachedImageAppearsSynchronously() {
        let screen = ImageTableScreen(rows: 20, height: 44)
        screen.provider.store(FakeImageProvider.url(5))
        screen.table.scroll(to: 5 * 44)
        #expect(screen.photo(5) == FakeImageProvider.image(for: FakeImageProvider.url(5)))
        #expect(!screen.provider.requested.contains(FakeImageProvider.url(5)))
    }

    @Test func aFailedLoadKeepsThePlaceholder() {
        let screen = ImageTableScreen(rows: 3, height: 44)
        screen.provider.respond(to: FakeImageProvider.url(0), failing: true)
        Headless.drain()
        #expect(screen.photo(0) == placeholder)
    }

    @Test func prefetchedImagesAreCachedBeforeTheRowsAppear() {
        let screen = ImageTableScreen(rows: 50, height: 88, prefetchDistance: 2)
        #expect(screen.prefetcher.prefetchingIndexPaths.map(\.row) == [2, 3])
        screen.provider.respond(to: FakeImageProvider.url(3))
        screen.table.scroll(to: 2 * 44)
        #expect(screen.photo(3) == FakeImageProvider.image(for: FakeImageProvider.url(3)))
        // Row 2's prefetch was cancelled when it became visible; its cell loads it itself.
        #expect(screen.provider.pending.filter { $0.url == FakeImageProvider.url(2) }.count == 1)
    }

    @Test func imageViewRendersItsImage() {
        let screen = ImageTableScreen(rows: 1, height: 44)
        screen.provider.respond(to: FakeImageProvider.url(0))
        Headless.drain()
        #expect(screen.table.render() == """
        TableView 1 row, offset 0
          PizzaCell [0,0]
            Label "pizza 0"
            ImageView [image row0 4×4]
        """)
    }

    /// Random scrolls × random response orders and failures over 1,000 rows: every visible
    /// cell shows its own row's image or the placeholder; requests in flight never exceed the
    /// visible rows plus the prefetch window.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func visibleCellsOnlyEverShowTheirOwnImages(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let prefetchDistance = Int.random(in: 0...4, using: &random)
        let rowHeight = [30.0, 44, 61][Int.random(in: 0...2, using: &random)]
        let screen = ImageTableScreen(rows: 1_000, height: 400, rowHeight: rowHeight, prefetchDistance: prefetchDistance)
        let table = screen.table, provider = screen.provider
        var landed = 0
        for step in 0..<300 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...2:
                table.scroll(by: Double.random(in: -300...300, using: &random))
            case 3:
                table.scroll(to: Double.random(in: 0...table.maximumContentOffset, using: &random))
            case 4...7:
                if provider.inFlight > 0 {
                    provider.respond(at: Int.random(in: 0..<provider.inFlight, using: &random), failing: Int.random(in: 0..<5, using: &random) == 0)
                }
            default:
                Headless.drain()
            }
            for cell in table.visibleCells {
                guard let cell = cell as? PizzaCell, let row = cell.indexPath?.row else {
                    Issue.record("a visible cell without a row at step \(step)")
                    continue
                }
                let own = FakeImageProvider.image(for: FakeImageProvider.url(row))
                #expect(cell.photo.image == placeholder || cell.photo.image == own, "step \(step): row \(row) shows \(String(describing: cell.photo.image))")
                if cell.photo.image == own { landed += 1 }
                #expect(cell.name.text == "pizza \(row)")
            }
            let bound = table.visibleCells.count + 2 * prefetchDistance
            #expect(provider.inFlight <= bound, "step \(step): \(provider.inFlight) requests in flight, bound \(bound)")
        }
        #expect(landed > 0, "no image ever landed: the test would prove nothing")
    }
}

/// A provider that decodes real PNG data on a background queue.
final class BackgroundPNGProvider: ImageProviding, @unchecked Sendable {
    let data: Data
    init(data: Data) { self.data = data }
    func cachedImage(for url: URL) -> Image? { nil }
    func loadImage(for url: URL) -> Observable<Image> {
        let data = self.data
        return Observable.create { observer in
            DispatchQueue.global().async {
                do {
                    observer.onNext(try Image(pngData: data, name: url.deletingPathExtension().lastPathComponent))
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            return Disposables.create()
        }
    }
}

@MainActor @Suite(.resourceCheck) struct BackgroundImageLoadingTests {
    @Test func decodesOffTheMainSchedulerAndLandsOnIt() {
        let png = Image(width: 8, height: 8, color: .init(r: 9, g: 8, b: 7), name: "x").pngData()
        let imageView = ImageView()
        let provider = BackgroundPNGProvider(data: png)
        Headless.run {
            imageView.load(URL(string: "https://pizza.example/pepperoni.png")!, from: provider, placeholder: placeholder)
        }
        let landed = MainScheduler.run(until: { imageView.image?.name == "pepperoni" }, timeout: 10)
        #expect(landed)
        #expect(imageView.render() == "ImageView [image pepperoni 8×8]")
    }

    @Test func notAnImageKeepsThePlaceholder() {
        let imageView = ImageView()
        let provider = BackgroundPNGProvider(data: Data("<html>".utf8))
        let failures = MessageBox()
        let subscription = provider.loadImage(for: URL(string: "https://pizza.example/a.png")!)
            .subscribe(onError: { error in failures.lock.withLock { failures.messages.append("\(error)") } })
        Headless.run { imageView.load(URL(string: "https://pizza.example/a.png")!, from: provider, placeholder: placeholder) }
        #expect(MainScheduler.run(until: { failures.lock.withLock { failures.messages == ["\(ImageError.notAnImage)"] } }, timeout: 10))
        Headless.drain()
        #expect(imageView.image == placeholder)
        subscription.dispose()
    }
}
