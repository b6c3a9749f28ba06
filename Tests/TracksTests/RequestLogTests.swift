import Foundation
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing
@testable import Tracks

@MainActor @Suite(.resourceCheck) struct RequestLogTests {
    @Test func countsRequestsCancellationsAndFailures() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: [
            "/a": .json("a", delay: .seconds(10)),
            "/b": .status(404, delay: .seconds(10)),
        ])
        let log = RequestLog(network)
        let a = URL(string: "https://x.example/a")!, b = URL(string: "https://x.example/b")!
        let answered = scheduler.createObserver(Data.self)
        _ = log.fetch(url: a).asObservable().subscribe(answered)
        let failed = log.fetch(url: b).asObservable().subscribe(onError: { _ in })
        let cancelled = log.fetch(url: a).asObservable().subscribe()
        scheduler.scheduleAt(5) { cancelled.dispose() }
        scheduler.start()
        failed.dispose()
        #expect(answered.events == [.next(10, Data("a".utf8)), .completed(10)])
        #expect(log.requestedURLs == [a, b, a])
        #expect(log.distinctURLCount == 2)
        #expect(log.cancelledCount == 1)
        #expect(log.failedCount == 1)
    }
}
