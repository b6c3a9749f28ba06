import Streams
import StreamsTesting
import TestSupport
import Testing

/// The trait operators RxSwift 6 has beside the basics: zip of any arity, Completable's
/// concat and zip, retry(when:), debug, using, timer, Maybe.ifEmpty(switchTo:).
@Suite(.resourceCheck) struct PrimitiveSequenceOperatorsTests {
    @Test func singleZipOfEightSourcesCombinesThemWhenTheLastSucceeds() {
        let scheduler = TestScheduler(initialClock: 0)
        let singles = (1...8).map { index in
            scheduler.createColdObservable([.next(10 * index, index), .completed(10 * index)]).asObservable().asSingle()
        }
        let res = scheduler.start {
            Single.zip(singles[0], singles[1], singles[2], singles[3], singles[4], singles[5], singles[6], singles[7]) {
                [$0, $1, $2, $3, $4, $5, $6, $7].reduce(0, +)
            }
        }
        #expect(res.events == [.next(280, 36), .completed(280)])
    }

    @Test func singleZipOfFourSourcesMakesATupleOfMixedTypes() {
        var received: (Int, String, Bool, Double)?
        _ = Single.zip(Single.just(1), Single.just("a"), Single.just(true), Single.just(2.5)).subscribe(onSuccess: { received = $0 })
        #expect(received?.0 == 1)
        #expect(received?.1 == "a")
        #expect(received?.2 == true)
        #expect(received?.3 == 2.5)
    }

    @Test func singleZipFailsAtTheFirstFailureAndDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([.next(100, 1), .completed(100)])
        let failing = scheduler.createColdObservable([Recorded<Event<Int>>.error(30, testError)])
        let res = scheduler.start {
            Single.zip(slow.asObservable().asSingle(), failing.asObservable().asSingle(), Single.just(3)) { $0 + $1 + $2 }
        }
        #expect(res.events == [.error(230, testError)])
        #expect(slow.subscriptions == [Subscription(200, 230)])
    }

    @Test func singleZipOfACollectionWithAResultSelector() {
        var sum: Int?
        _ = Single.zip([Single.just(1), .just(2), .just(3)]) { $0.reduce(0, +) }.subscribe(onSuccess: { sum = $0 })
        #expect(sum == 6)
        var empty: [Int]?
        _ = Single.zip([Single<Int>]()).subscribe(onSuccess: { empty = $0 })
        #expect(empty == [])
        var emptySum: Int?
        _ = Single.zip([Single<Int>]()) { $0.count }.subscribe(onSuccess: { emptySum = $0 })
        #expect(emptySum == 0)
    }

    @Test func maybeZipSucceedsWhenAllSucceedAndCompletesEmptyWhenOneIsEmpty() {
        var sum: Int?
        _ = Maybe.zip(Maybe.just(1), .just(2), .just(3), .just(4)) { $0 + $1 + $2 + $3 }.subscribe(onSuccess: { sum = $0 })
        #expect(sum == 10)
        var pair: (Int, String)?
        _ = Maybe.zip(Maybe.just(1), Maybe.just("b")).subscribe(onSuccess: { pair = $0 })
        #expect(pair?.0 == 1 && pair?.1 == "b")

        var events: [String] = []
        _ = Maybe.zip(Maybe.just(1), Maybe<Int>.empty()) { $0 + $1 }
            .subscribe(onSuccess: { events.append("success \($0)") }, onError: { _ in events.append("error") }, onCompleted: { events.append("empty") })
        #expect(events == ["empty"])
    }

    @Test func completableConcatRunsInTurnAndZipRunsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([Recorded<Event<Never>>.completed(20)])
        let b = scheduler.createColdObservable([Recorded<Event<Never>>.completed(30)])
        let concatenated = scheduler.start { Completable.concat(a.asObservable().asCompletable(), b.asObservable().asCompletable()) }
        #expect(concatenated.events == [.completed(250)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(220, 250)])

        let later = TestScheduler(initialClock: 0)
        let c = later.createColdObservable([Recorded<Event<Never>>.completed(20)])
        let d = later.createColdObservable([Recorded<Event<Never>>.completed(30)])
        let zipped = later.start { Completable.zip([c.asObservable().asCompletable(), d.asObservable().asCompletable()]) }
        #expect(zipped.events == [.completed(230)])
        #expect(c.subscriptions == [Subscription(200, 220)])
        #expect(d.subscriptions == [Subscription(200, 230)])
    }

    @Test func completableZipEndsAtTheFirstFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([Recorded<Event<Never>>.completed(100)])
        let failing = scheduler.createColdObservable([Recorded<Event<Never>>.error(10, testError)])
        let res = scheduler.start { Completable.zip(slow.asObservable().asCompletable(), failing.asObservable().asCompletable()) }
        #expect(res.events == [.error(210, testError)])
        #expect(slow.subscriptions == [Subscription(200, 210)])
        var sequenceCompleted = false
        _ = Completable.concat(AnySequence([Completable.empty(), .empty()])).subscribe(onCompleted: { sequenceCompleted = true })
        #expect(sequenceCompleted)
    }

    @Test func singleRetryWhenResubscribesOnTheTriggerAndFailsWithTheTriggersError() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, testError)])
        let res = scheduler.start {
            source.asObservable().asSingle().retry(when: { (errors: Observable<TestError>) in
                errors.enumerated().map { attempt -> Int in
                    if attempt.index == 2 { throw attempt.element }
                    return attempt.index
                }
            })
        }
        #expect(res.events == [.error(230, testError)])
        #expect(source.subscriptions == [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])
    }

    @Test func usingDisposesTheResourceWhenTheSingleSucceeds() {
        let resource = BooleanDisposable()
        var element: Int?
        _ = Single.using({ resource }, primitiveSequenceFactory: { _ in Single.just(7) }).subscribe(onSuccess: { element = $0 })
        #expect(element == 7)
        #expect(resource.isDisposed)
    }

    @Test func timerSucceedsWithZeroAfterItsDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let single = scheduler.start { Single<Int>.timer(.seconds(30), scheduler: scheduler) }
        #expect(single.events == [.next(230, 0), .completed(230)])
        let maybe = TestScheduler(initialClock: 0)
        let res = maybe.start { Maybe<Int>.timer(.seconds(5), scheduler: maybe) }
        #expect(res.events == [.next(205, 0), .completed(205)])
    }

    @Test func maybeIfEmptySwitchesToAnotherMaybeOnlyWhenEmpty() {
        var values: [Int] = []
        var completions = 0
        _ = Maybe<Int>.empty().ifEmpty(switchTo: Maybe.just(5)).subscribe(onSuccess: { values.append($0) })
        _ = Maybe.just(1).ifEmpty(switchTo: Maybe.just(5)).subscribe(onSuccess: { values.append($0) })
        _ = Maybe<Int>.empty().ifEmpty(switchTo: Maybe<Int>.empty()).subscribe(onSuccess: { values.append($0) }, onCompleted: { completions += 1 })
        #expect(values == [5, 1])
        #expect(completions == 1)
    }

    @Test func debugPassesEventsThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { source.asObservable().asSingle().debug("trait") }
        #expect(res.events == [.next(210, 1), .completed(210)])
    }
}
