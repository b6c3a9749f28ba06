import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ReduceTests {
    @Test func sendsTheFinalValueAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 9), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.reduce(10, accumulator: +) }
        #expect(res.events == [.next(300, 16), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func mapResultTransformsTheFinalValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.reduce(0, accumulator: +, mapResult: { "sum \($0)" }) }
        #expect(res.events == [.next(300, "sum 3"), .completed(300)])
    }

    @Test func emptySourceSendsTheSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        #expect(res.events == [.next(250, 42), .completed(250)])
    }

    @Test func errorsEndTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start { xs.reduce(0, accumulator: +) }
        #expect(res.events == [.error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])

        let throwing = TestScheduler(initialClock: 0)
        let ys = throwing.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let thrown = throwing.start { ys.reduce(0) { sum, value -> Int in
            if value == 2 { throw TestError.code(2) }
            return sum + value
        } }
        #expect(thrown.events == [.error(220, TestError.code(2))])
        #expect(ys.subscriptions == [Subscription(200, 220)])

        let mapping = TestScheduler(initialClock: 0)
        let zs = mapping.createHotObservable([.next(210, 1), .completed(300)])
        let mapped = mapping.start { zs.reduce(0, accumulator: +, mapResult: { _ -> Int in throw TestError.code(3) }) }
        #expect(mapped.events == [.error(300, TestError.code(3))])
    }

    @Test func disposalBeforeCompletionSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(600)])
        let res = scheduler.start(disposed: 400) { xs.reduce(0, accumulator: +) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }
}
