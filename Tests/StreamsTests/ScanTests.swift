import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ScanTests {
    @Test func sendsEachRunningTotal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 9), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.scan(10, accumulator: +) }
        #expect(res.events == [.next(210, 11), .next(220, 13), .next(230, 16), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func intoMutatesTheAccumulatorInPlace() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.scan(into: [Int]()) { $0.append($1) } }
        #expect(res.events == [.next(210, [1]), .next(220, [1, 2]), .completed(300)])
    }

    @Test func emptySourceSendsNothingButCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.scan(0, accumulator: +) }
        #expect(res.events == [.completed(250)])
    }

    @Test func throwingAccumulatorAndSourceErrorsEndTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.scan(0) { sum, value -> Int in
            if value == 2 { throw testError }
            return sum + value
        } }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let failing = TestScheduler(initialClock: 0)
        let ys = failing.createHotObservable([.next(210, 1), .error(230, TestError.code(3))])
        let failed = failing.start { ys.scan(0, accumulator: +) }
        #expect(failed.events == [.next(210, 1), .error(230, TestError.code(3))])
    }

    @Test func disposalStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2), .completed(600)])
        let res = scheduler.start(disposed: 400) { xs.scan(0, accumulator: +) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test func eachSubscriptionStartsFromTheSeed() {
        let scanned = Observable.of(1, 2, 3).scan(into: 0) { $0 += $1 }
        var first: [Int] = []
        var second: [Int] = []
        _ = scanned.subscribe(onNext: { first.append($0) })
        _ = scanned.subscribe(onNext: { second.append($0) })
        #expect(first == [1, 3, 6])
        #expect(second == [1, 3, 6])
    }
}
