import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct SingleTests {
    @Test func createDeliversSuccessOnce() throws {
        var events: [SingleEvent<Int>] = []
        let single = Single<Int>.create { observer in
            observer(.success(1))
            observer(.success(2))
            observer(.failure(testError))
            return Disposables.create()
        }
        _ = single.subscribe { events.append($0) }
        #expect(events.count == 1)
        #expect(try events.first?.get() == 1)
    }

    @Test func createDeliversFailure() {
        var failure: Error?
        var disposed = 0
        _ = Single<Int>.create { observer in
            observer(.failure(testError))
            return Disposables.create()
        }.subscribe(onSuccess: { _ in Issue.record("no success expected") }, onFailure: { failure = $0 }, onDisposed: { disposed += 1 })
        #expect(failure as? TestError == .boom)
        #expect(disposed == 1)
    }

    @Test func disposingRunsCreateCleanup() {
        var cleaned = 0
        var disposedCalls = 0
        let subscription = Single<Int>.create { _ in Disposables.create { cleaned += 1 } }
            .subscribe(onSuccess: { _ in }, onDisposed: { disposedCalls += 1 })
        #expect(cleaned == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(cleaned == 1)
        #expect(disposedCalls == 1)
    }

    @Test func justErrorNeverDeferred() {
        var results: [String] = []
        _ = Single.just(1).subscribe(onSuccess: { results.append("just \($0)") })
        _ = Single<Int>.error(testError).subscribe(onFailure: { results.append("error \($0)") })
        let never = Single<Int>.never().subscribe(onSuccess: { _ in results.append("never") }, onFailure: { _ in results.append("never") })
        var made = 0
        let deferred = Single<Int>.deferred { made += 1; return .just(made) }
        #expect(made == 0)
        _ = deferred.subscribe(onSuccess: { results.append("deferred \($0)") })
        _ = deferred.subscribe(onSuccess: { results.append("deferred \($0)") })
        never.dispose()
        #expect(results == ["just 1", "error boom", "deferred 1", "deferred 2"])
    }

    @Test func asSingleOfOneElementWaitsForCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(250)])
        let res = scheduler.start { xs.asSingle().asObservable() }
        #expect(res.events == [.next(250, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func asSingleOfEmptyFailsWithNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(250)])
        let res = scheduler.start { xs.asSingle().asObservable() }
        #expect(res.events == [.error(250, StreamsError.noElements)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func asSingleOfTwoElementsFailsAtTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.asSingle().asObservable() }
        #expect(res.events == [.error(220, StreamsError.moreThanOneElement)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func asSingleForwardsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start { xs.asSingle().asObservable() }
        #expect(res.events == [.error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func mapFlatMapAndFilter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(220)])
        let res = scheduler.start {
            xs.asSingle()
                .map { $0 * 10 }
                .flatMap { value in Single.just(value + 1) }
                .filter { $0 > 30 }
                .asObservable()
        }
        #expect(res.events == [.completed(220)])
        let res2 = TestScheduler(initialClock: 0).start { Single.just(3).map { $0 * 10 }.filter { $0 > 20 }.asObservable() }
        #expect(res2.events == [.next(200, 30), .completed(200)])
    }

    @Test func flatMapSubscribesTheInnerSingleAfterTheOuterSucceeds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createColdObservable([.next(30, "a"), .completed(30)])
        let res = scheduler.start { xs.asSingle().flatMap { _ in ys.asSingle() }.asObservable() }
        #expect(res.events == [.next(250, "a"), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(220, 250)])
    }

    @Test func throwingSelectorsFail() {
        var errors: [Error] = []
        _ = Single.just(1).map { _ -> Int in throw testError }.subscribe(onFailure: { errors.append($0) })
        _ = Single.just(1).flatMap { _ -> Single<Int> in throw TestError.code(2) }.subscribe(onFailure: { errors.append($0) })
        #expect(errors.map { $0 as? TestError } == [.boom, .code(2)])
    }

    @Test func flatMapMaybeAndCompletable() {
        var log: [String] = []
        _ = Single.just(1).flatMapMaybe { _ in Maybe<Int>.empty() }
            .subscribe(onSuccess: { _ in log.append("success") }, onCompleted: { log.append("empty") })
        _ = Single.just(1).flatMapMaybe { Maybe.just($0 + 1) }
            .subscribe(onSuccess: { log.append("success \($0)") })
        _ = Single.just(1).flatMapCompletable { _ in Completable.empty() }
            .subscribe(onCompleted: { log.append("completed") })
        _ = Single.just(1).flatMapCompletable { _ in Completable.error(testError) }
            .subscribe(onError: { _ in log.append("error") })
        #expect(log == ["empty", "success 2", "completed", "error"])
    }

    @Test func catchAndReturnAndCatch() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(230, testError)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, 7), .completed(10)])
        let res = scheduler.start { xs.asSingle().catch { _ in ys.asSingle() }.asObservable() }
        #expect(res.events == [.next(240, 7), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 240)])

        var values: [Int] = []
        _ = Single<Int>.error(testError).catchAndReturn(5).subscribe(onSuccess: { values.append($0) })
        var caught: Error?
        _ = Single<Int>.error(testError).catch { _ in throw TestError.code(1) }.subscribe(onFailure: { caught = $0 })
        #expect(values == [5])
        #expect(caught as? TestError == .code(1))
    }

    @Test func retryResubscribesUpToMaxAttempts() throws {
        var attempts = 0
        let failing = Single<Int>.create { observer in
            attempts += 1
            observer(attempts < 3 ? .failure(TestError.code(attempts)) : .success(attempts))
            return Disposables.create()
        }
        var result: SingleEvent<Int>?
        _ = failing.retry(2).subscribe { result = $0 }
        #expect(attempts == 2)
        #expect(throws: TestError.code(2)) { try result?.get() }

        attempts = 0
        _ = failing.retry().subscribe { result = $0 }
        #expect(attempts == 3)
        #expect(try result?.get() == 3)
    }

    @Test func retryOnTheTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start { xs.asSingle().retry(3).asObservable() }
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
        #expect(res.events == [.error(260, testError)])
    }

    @Test func doCallsSideEffectsInOrder() {
        var log: [String] = []
        _ = Single.just(1)
            .do(onSuccess: { log.append("onSuccess \($0)") },
                afterSuccess: { log.append("afterSuccess \($0)") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") })
            .subscribe(onSuccess: { log.append("success \($0)") })
        #expect(log == ["onSubscribe", "onSuccess 1", "success 1", "afterSuccess 1", "onSubscribed", "onDispose"])

        var failure: Error?
        _ = Single.just(1).do(onSuccess: { _ in throw testError }).subscribe(onFailure: { failure = $0 })
        #expect(failure as? TestError == .boom)
    }

    @Test func zipWaitsForBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(230, 2), .completed(240)])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 }.asObservable() }
        #expect(res.events == [.next(240, 3), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(200, 240)])
    }

    @Test func zipFailsAtTheFirstError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let ys = scheduler.createHotObservable([.error(230, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 }.asObservable() }
        #expect(res.events == [.error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func zipTuplesAndCollections() {
        var pair: (Int, String)?
        _ = Single.zip(Single.just(1), Single.just("a")).subscribe(onSuccess: { pair = $0 })
        #expect(pair?.0 == 1 && pair?.1 == "a")
        var all: [Int] = []
        _ = Single.zip([Single.just(1), .just(2), .just(3)]).subscribe(onSuccess: { all = $0 })
        #expect(all == [1, 2, 3])
        var empty: [Int]?
        _ = Single.zip([Single<Int>]()).subscribe(onSuccess: { empty = $0 })
        #expect(empty == [])
        var triple = 0
        _ = Single.zip(Single.just(1), Single.just(2), Single.just(3)) { $0 + $1 + $2 }.subscribe(onSuccess: { triple = $0 })
        #expect(triple == 6)
    }

    @Test func asMaybeAndAsCompletable() {
        var log: [String] = []
        _ = Single.just(1).asMaybe().subscribe(onSuccess: { log.append("maybe \($0)") })
        _ = Single.just(1).asCompletable().subscribe(onCompleted: { log.append("completable") })
        #expect(log == ["maybe 1", "completable"])
    }

    @Test func subscribeWithObjectHoldsItWeakly() {
        final class Owner { var values: [Int] = [] }
        let owner = Owner()
        _ = Single.just(4).subscribe(with: owner, onSuccess: { $0.values.append($1) })
        #expect(owner.values == [4])
    }

    @Test func observeOnAndSubscribeOnUseTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(1).observe(on: scheduler).asObservable() }
        // Each event is its own scheduled action, as in RxSwift: the completion a tick later.
        #expect(res.events == [.next(201, 1), .completed(202)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let res2 = scheduler2.start { Single.just(1).subscribe(on: scheduler2).asObservable() }
        #expect(res2.events == [.next(201, 1), .completed(201)])
    }

    @Test func observeOnDisposedBeforeDeliveryDropsEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(210)])
        let res = scheduler.start(disposed: 210) { xs.asSingle().observe(on: scheduler).asObservable() }
        #expect(res.events == [])
    }
}
