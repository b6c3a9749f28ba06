import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct EnumeratedTests {
    @Test func pairsElementsWithTheirIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, "z"), .next(210, "a"), .next(220, "b"), .next(230, "c"), .completed(300)])
        let res = scheduler.start { xs.enumerated().map { "\($0.index):\($0.element)" } }
        #expect(res.events == [.next(210, "0:a"), .next(220, "1:b"), .next(230, "2:c"), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func passesErrorsAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(250, testError)])
        let res = scheduler.start { xs.enumerated().map { $0.index } }
        #expect(res.events == [.next(210, 0), .error(250, testError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.next(210, "a"), .next(500, "b"), .completed(600)])
        let cut = later.start(disposed: 400) { ys.enumerated().map { $0.index } }
        #expect(cut.events == [.next(210, 0)])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }

    @Test func eachSubscriptionCountsFromZero() {
        let numbered = Observable.of("a", "b").enumerated()
        var first: [Int] = []
        var second: [Int] = []
        _ = numbered.subscribe(onNext: { first.append($0.index) })
        _ = numbered.subscribe(onNext: { second.append($0.index) })
        #expect(first == [0, 1])
        #expect(second == [0, 1])
    }
}
