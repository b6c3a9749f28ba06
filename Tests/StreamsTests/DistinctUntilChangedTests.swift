import Streams
import StreamsTesting
import TestSupport
import Testing

/// `distinctUntilChanged` in all its forms, the design chain's third stage.
@Suite(.resourceCheck) struct DistinctUntilChangedTests {
    @Test func dropsAnElementEqualToTheOneBeforeIt() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let values: [Character: Int] = ["1": 1, "2": 2, "3": 3]
        let xs = try scheduler.createHotObservable("-1-^-1-1-2-2-1-3-3-|", values: values)
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(220, 1), .next(260, 2), .next(300, 1), .next(320, 3), .completed(360)])
        #expect(res.marbles(values: values) == "--1---2---1-3---|")
        // The 1 sent before the subscription does not count as the previous element.
        #expect(xs.subscriptions == [Subscription(200, 360)])
    }

    @Test func theFirstElementAlwaysPasses() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 5), .completed(220)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 5), .completed(220)])
    }

    @Test func aKeySelectorComparesKeys() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "A"), .next(230, "b"), .next(240, "B"), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { $0.lowercased() } }
        #expect(res.events == [.next(210, "a"), .next(230, "b"), .completed(250)])
    }

    @Test func aKeyPathComparesThatProperty() {
        struct Pizza: Equatable { var name: String; var price: Int }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Pizza(name: "Margherita", price: 7)), .next(220, Pizza(name: "Marinara", price: 7)),
            .next(230, Pizza(name: "Diavola", price: 9)), .completed(240),
        ])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.price) }
        #expect(res.events == [.next(210, Pizza(name: "Margherita", price: 7)), .next(230, Pizza(name: "Diavola", price: 9)), .completed(240)])
    }

    @Test func aComparerSaysWhenTwoElementsAreTheSameAndIsAskedAboutTheLastElementSent() {
        // "Within 1 of each other" is not transitive: 2 is dropped as the same as 1, and 3 is
        // compared with 1 — the last element sent — not with the dropped 2, so it passes.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        var asked: [[Int]] = []
        let res = scheduler.start {
            xs.distinctUntilChanged { (previous: Int, next: Int) in
                asked.append([previous, next])
                return abs(previous - next) <= 1
            }
        }
        #expect(res.events == [.next(210, 1), .next(230, 3), .completed(250)])
        #expect(asked == [[1, 2], [1, 3], [3, 4]])
    }

    @Test func aKeySelectorAndAComparerTogether() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 10), .next(220, 19), .next(230, 21), .completed(240)])
        let res = scheduler.start { xs.distinctUntilChanged({ $0 / 10 }, comparer: { $0 == $1 }) }
        #expect(res.events == [.next(210, 10), .next(230, 21), .completed(240)])
    }

    @Test func aThrowingKeySelectorEndsTheSequenceAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.distinctUntilChanged { (element: Int) -> Int in
                if element == 2 { throw testError }
                return element
            }
        }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func aThrowingComparerEndsTheSequenceAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.distinctUntilChanged { (_: Int, _: Int) throws -> Bool in throw testError } }
        // The first element is compared with nothing, so only the second one reaches the comparer.
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func errorsAndDisposalPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let failed = scheduler.start { failing.distinctUntilChanged() }
        #expect(failed.events == [.next(210, 1), .error(220, testError)])
        #expect(failing.subscriptions == [Subscription(200, 220)])

        let later = TestScheduler(initialClock: 0)
        let endless = later.createHotObservable([.next(210, 1), .next(500, 2)])
        let disposed = later.start(disposed: 400) { endless.distinctUntilChanged() }
        #expect(disposed.events == [.next(210, 1)])
        #expect(endless.subscriptions == [Subscription(200, 400)])
    }

    @Test func eachSubscriptionRemembersItsOwnPreviousElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 1), .completed(30)])
        let distinct = xs.distinctUntilChanged()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = distinct.subscribe(first) }
        scheduler.scheduleAt(300) { _ = distinct.subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(210, 1), .completed(230)])
        #expect(second.events == [.next(310, 1), .completed(330)])
    }
}
