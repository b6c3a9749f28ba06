import Foundation
@testable import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct DebugTests {
    private static let timestamp = #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}: "#

    private func stripTimestamp(_ line: String) -> String? {
        guard let range = line.range(of: Self.timestamp, options: .regularExpression) else { return nil }
        return String(line[range.upperBound...])
    }

    @Test func logsSubscriptionEventsAndDisposalWithATimestamp() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        var lines: [String] = []
        let res = scheduler.start { xs.debug("numbers", output: { lines.append($0) }) }
        #expect(res.events == [.next(210, 1), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(lines.map(stripTimestamp) == [
            "numbers -> subscribed",
            "numbers -> Event next(1)",
            "numbers -> Event completed",
            "numbers -> isDisposed",
        ])
    }

    @Test func logsErrorsAndDisposalByTheSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, testError)] as [Recorded<Event<Int>>])
        var lines: [String] = []
        let res = scheduler.start { xs.debug("failing", output: { lines.append($0) }) }
        #expect(res.events == [.error(250, testError)])
        #expect(lines.map(stripTimestamp) == ["failing -> subscribed", "failing -> Event error(boom)", "failing -> isDisposed"])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.next(500, 1)])
        var cutLines: [String] = []
        let cut = later.start(disposed: 400) { ys.debug("cut", output: { cutLines.append($0) }) }
        #expect(cut.events == [])
        #expect(ys.subscriptions == [Subscription(200, 400)])
        #expect(cutLines.map(stripTimestamp) == ["cut -> subscribed", "cut -> isDisposed"])
    }

    @Test func trimOutputShortensLongEvents() {
        let long = String(repeating: "a", count: 30) + String(repeating: "b", count: 30)
        var trimmed: [String] = []
        _ = Observable.just(long).debug("t", trimOutput: true, output: { trimmed.append($0) }).subscribe()
        let text = "next(\(long))"
        let expected = "t -> Event " + String(text.prefix(20)) + "..." + String(text.suffix(20))
        #expect(trimmed.map(stripTimestamp).contains(expected))

        var full: [String] = []
        _ = Observable.just(long).debug("t", output: { full.append($0) }).subscribe()
        #expect(full.map(stripTimestamp).contains("t -> Event \(text)"))
    }

    @Test func defaultIdentifierNamesFileLineAndFunction() {
        #expect(Observable<Int>.defaultDebugIdentifier(file: "Streams/Sample.swift", line: 12, function: "run()") == "Sample.swift:12 (run())")
    }

    @Test func publicDebugPassesEventsThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.debug("stdout") }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }
}
