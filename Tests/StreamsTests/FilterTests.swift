import Streams
import StreamsTesting
import TestSupport
import Testing

/// `filter`, the design chain's second stage: virtual time, recorded events and subscription logs.
@Suite(.resourceCheck) struct FilterTests {
    @Test func keepsTheElementsThatSatisfyThePredicateAndPassesCompletionOn() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("-1-^-2-3-4-5-6-|", values: ["1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6])
        var asked: [Int] = []
        let res = scheduler.start { xs.filter { asked.append($0); return $0.isMultiple(of: 2) } }
        #expect(res.events == [.next(220, 2), .next(260, 4), .next(300, 6), .completed(320)])
        #expect(res.marbles(values: ["2": 2, "4": 4, "6": 6]) == "--2---4---6-|")
        #expect(xs.subscriptions == [Subscription(200, 320)])
        // The element sent before the subscription is never offered to the predicate.
        #expect(asked == [2, 3, 4, 5, 6])
    }

    @Test func anErrorOfTheSourceIsPassedOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError), .next(240, 4)])
        let res = scheduler.start { xs.filter { $0 > 1 } }
        #expect(res.events == [.next(220, 2), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func aThrowingPredicateEndsTheSequenceAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.filter { element in
                if element == 2 { throw testError }
                return true
            }
        }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingStopsTheElementsAndTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(250, 4), .next(450, 6), .completed(600)])
        let res = scheduler.start(disposed: 400) { xs.filter { _ in true } }
        #expect(res.events == [.next(210, 2), .next(250, 4)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test func aPredicateThatRejectsEverythingLeavesOnlyTheTerminalEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.filter { _ in false } }
        #expect(res.events == [.completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func eachSubscriptionFiltersItsOwnSubscriptionToAColdSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let filtered = xs.filter { $0 == 2 }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = filtered.subscribe(first) }
        scheduler.scheduleAt(300) { _ = filtered.subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(220, 2), .completed(230)])
        #expect(second.events == [.next(320, 2), .completed(330)])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(300, 330)])
    }
}
