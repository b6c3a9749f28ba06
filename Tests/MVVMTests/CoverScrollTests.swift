import Foundation
import HeadlessUI
import MVVM
import Repository
import Streams
import TestSupport
import Testing

/// Lazy covers in reused cells against a real server on 127.0.0.1: a table of 200 books whose
/// pages arrive while the user scrolls down, back up and down again.
@MainActor @Suite(.resourceCheck) struct CoverScrollTests {
    static let coverCount = 200
    static let pageSize = 20

    static func path(_ index: Int) -> String { "/covers/\(index).png" }

    static func cover(_ index: Int) -> Image {
        Image(width: 2, height: 2, color: .init(r: UInt8(index % 256), g: UInt8(index / 256), b: 9))
    }

    /// A cell with a cover.
    final class CoverCell: TableViewCell {
        let cover = ImageView()

        required init(reuseIdentifier: String?) {
            super.init(reuseIdentifier: reuseIdentifier)
            contentView.addSubview(cover)
        }
    }

    /// A server whose covers each take a moment, so that loads are in flight while cells move on.
    static func makeServer() throws -> TestHTTPServer {
        var routes: [String: TestHTTPServer.Action] = [:]
        for index in 0..<coverCount {
            routes[path(index)] = .respondAfter(seconds: 0.02, status: 200, body: cover(index).pngData())
        }
        return try TestHTTPServer(routes: routes, maxConnections: 64)
    }

    /// Scrolls the table down, up and down again (200 points a frame) while pages of 20 rows
    /// are appended every few frames, then waits for every download to end.
    static func scroll(loader: ImageLoader<Image>, server: TestHTTPServer) -> (table: TableView, bag: DisposeBag, shown: Set<Int>) {
        let rows = BehaviorRelay<[Int]>(value: Array(0..<pageSize))
        let table = TableView(height: 600, rowHeight: 60)
        table.register(CoverCell.self, forCellReuseIdentifier: "Cover")
        let bag = DisposeBag()
        Headless.run {
            rows.bind(to: table.rx.items(cellIdentifier: "Cover", cellType: CoverCell.self)) { _, index, cell in
                cell.cover.load(server.url(path(index)), from: loader, placeholder: nil)
            }
            .disposed(by: bag)
        }
        var shown = Set<Int>()
        var frame = 0
        func step(to offset: Double) {
            frame += 1
            if frame % 3 == 0, rows.value.count < coverCount {
                let next = rows.value.count
                Headless.run { rows.accept(rows.value + Array(next..<min(next + pageSize, coverCount))) }
            }
            table.scroll(to: offset)
            _ = Headless.drain()
            shown.formUnion(table.visibleCells.compactMap { $0.indexPath?.row })
        }
        for pass in 0..<3 {
            let goingDown = pass != 1
            var offset = goingDown ? 0 : table.maximumContentOffset
            while goingDown ? offset <= table.maximumContentOffset : offset >= 0 {
                step(to: offset)
                offset += goingDown ? 200 : -200
            }
            // The last page may have arrived during this pass: go all the way.
            while goingDown, rows.value.count < coverCount || table.contentOffset < table.maximumContentOffset {
                step(to: table.contentOffset + 200)
            }
        }
        let settled = MainScheduler.run(until: { loader.inFlightCount == 0 }, timeout: 120)
        #expect(settled)
        _ = Headless.drain()
        return (table, bag, shown)
    }

    @Test func downUpAndDownAgainCostsOneRequestPerCover() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let loader = ImageLoader.png(network: URLSessionNetwork(scheduler: ImmediateScheduler.instance))
        let (table, bag, shown) = Self.scroll(loader: loader, server: server)
        _ = bag
        let counts = (0..<Self.coverCount).map { server.requestCount(Self.path($0)) }
        #expect(shown.count == Self.coverCount)
        #expect(counts.allSatisfy { $0 <= 1 }, "repeated covers: \(counts.enumerated().filter { $0.element > 1 }.map(\.offset))")
        #expect(server.requestTotal == shown.count)
        // Every cover is in memory now: a last pass over the table asks for nothing.
        let before = server.requestTotal
        var offset = 0.0
        while offset <= table.maximumContentOffset {
            table.scroll(to: offset)
            offset += 200
            for cell in table.visibleCells {
                let row = try #require(cell.indexPath?.row)
                #expect((cell as? CoverCell)?.cover.image?.pixels == Self.cover(row).pixels)
            }
        }
        #expect(server.requestTotal == before)
    }

    @Test func theMemoryCacheStaysWithinItsLimit() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let imageCost = Self.cover(0).pixels.count
        let loader = ImageLoader.png(network: URLSessionNetwork(scheduler: ImmediateScheduler.instance), memoryCostLimit: 30 * imageCost)
        let (_, bag, _) = Self.scroll(loader: loader, server: server)
        _ = bag
        #expect(loader.memoryCost <= 30 * imageCost)
        #expect(loader.memoryCount == 30)
        // Covers evicted from memory are fetched again when shown again, one request each.
        #expect(server.requestTotal >= Self.coverCount)
    }
}
