import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct TakeTests {
    // MARK: take(_:)

    @Test func takeCountCompletesAfterTheLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.take(2) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func takeCountLargerThanTheSourcePassesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.take(5) }
        #expect(res.events == [.next(210, 1), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func takeZeroCompletesWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.take(0) }
        #expect(res.events == [.completed(200)])
        #expect(xs.subscriptions == [])
    }

    @Test func takeCountPassesErrorsAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.take(3) }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.next(210, 1), .next(500, 2), .completed(600)])
        let cut = later.start(disposed: 400) { ys.take(3) }
        #expect(cut.events == [.next(210, 1)])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }

    @Test func takeCountStopsAnEndlessSynchronousSource() {
        var values: [Int] = []
        _ = Observable.range(start: 0, count: Int.max).take(3).subscribe(onNext: { values.append($0) })
        #expect(values == [0, 1, 2])
    }

    // MARK: takeLast(_:)

    @Test func takeLastSendsTheLastElementsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let res = scheduler.start { xs.takeLast(2) }
        #expect(res.events == [.next(300, 3), .next(300, 4), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func takeLastWithFewerElementsSendsThemAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.takeLast(5) }
        #expect(res.events == [.next(300, 1), .next(300, 2), .completed(300)])

        let zero = TestScheduler(initialClock: 0)
        let ys = zero.createHotObservable([.next(210, 1), .completed(300)])
        let none = zero.start { ys.takeLast(0) }
        #expect(none.events == [.completed(300)])
    }

    @Test func takeLastRingBufferKeepsOrderAfterWrapping() {
        var values: [Int] = []
        _ = Observable.range(start: 1, count: 10).takeLast(3).subscribe(onNext: { values.append($0) })
        #expect(values == [8, 9, 10])
    }

    @Test func takeLastErrorDropsTheBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(300, testError)])
        let res = scheduler.start { xs.takeLast(2) }
        #expect(res.events == [.error(300, testError)])
        #expect(xs.subscriptions == [Subscription(200, 300)])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.next(210, 1), .completed(600)])
        let cut = later.start(disposed: 400) { ys.takeLast(2) }
        #expect(cut.events == [])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }

    // MARK: take(until: other)

    @Test func takeUntilCompletesWhenTheOtherSendsAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        let other = scheduler.createHotObservable([.next(150, "early"), .next(230, "stop"), .completed(250)])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(other.subscriptions == [Subscription(200, 230)])
    }

    @Test func takeUntilIgnoresTheOtherCompletingEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let other = scheduler.createHotObservable([.completed(225)] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 1), .next(240, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func takeUntilPassesErrorsFromEitherSide() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let other = scheduler.createHotObservable([.error(225, testError)] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 1), .error(225, testError)])
        #expect(xs.subscriptions == [Subscription(200, 225)])

        let second = TestScheduler(initialClock: 0)
        let ys = second.createHotObservable([.next(210, 1), .error(240, TestError.code(1))])
        let trigger = second.createHotObservable([.next(500, "late")])
        let failed = second.start { ys.take(until: trigger) }
        #expect(failed.events == [.next(210, 1), .error(240, TestError.code(1))])
        #expect(trigger.subscriptions == [Subscription(200, 240)])
    }

    @Test func takeUntilDisposalDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2)])
        let other = scheduler.createHotObservable([.next(600, "late")])
        let res = scheduler.start(disposed: 400) { xs.take(until: other) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(other.subscriptions == [Subscription(200, 400)])
    }

    @Test func takeUntilAnImmediateTriggerCompletesAtOnce() {
        var events: [Event<Int>] = []
        _ = Observable.of(1, 2, 3).take(until: Observable.just(())).subscribe { events.append($0) }
        #expect(events == [.completed])
    }

    // MARK: take(until: predicate) / take(while:)

    @Test func takeUntilPredicateExclusiveAndInclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let exclusive = scheduler.start { xs.take(until: { $0 == 3 }) }
        #expect(exclusive.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let inclusive = other.start { ys.take(until: { $0 == 3 }, behavior: .inclusive) }
        #expect(inclusive.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
        #expect(ys.subscriptions == [Subscription(200, 230)])
    }

    @Test func takeWhileExclusiveAndInclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 1), .completed(300)])
        let exclusive = scheduler.start { xs.take(while: { $0 < 3 }) }
        #expect(exclusive.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 1), .completed(300)])
        let inclusive = other.start { ys.take(while: { $0 < 3 }, behavior: .inclusive) }
        #expect(inclusive.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
    }

    @Test func takeWhileAllPassingCompletesWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.take(while: { _ in true }) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func takeWhileThrowingPredicateAndSourceErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.take(while: { value -> Bool in
            if value == 2 { throw testError }
            return true
        }) }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .error(250, TestError.code(5))])
        let failed = other.start { ys.take(until: { $0 > 10 }) }
        #expect(failed.events == [.next(210, 1), .error(250, TestError.code(5))])
    }

    @Test func takeWhileDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2), .completed(600)])
        let res = scheduler.start(disposed: 400) { xs.take(while: { _ in true }) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }
}
