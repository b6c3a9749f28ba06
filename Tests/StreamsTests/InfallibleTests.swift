import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct InfallibleTests {
    // MARK: - Making one

    @Test func createSendsElementsAndCompletionAndNothingAfter() {
        var events: [InfallibleEvent<Int>] = []
        var cleaned = 0
        let infallible = Infallible<Int>.create { observer in
            observer(.next(1))
            observer(.next(2))
            observer(.completed)
            observer(.next(3))
            return Disposables.create { cleaned += 1 }
        }
        _ = infallible.subscribe { events.append($0) }
        #expect(events == [.next(1), .next(2), .completed])
        #expect(cleaned == 1)
    }

    @Test func createCleanupRunsOnDisposal() {
        var cleaned = 0
        var disposed = 0
        let subscription = Infallible<Int>.create { _ in Disposables.create { cleaned += 1 } }
            .subscribe(onDisposed: { disposed += 1 })
        #expect(cleaned == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(cleaned == 1)
        #expect(disposed == 1)
    }

    @Test func factories() {
        func record<Element>(_ infallible: Infallible<Element>) -> [String] {
            var out: [String] = []
            let subscription = infallible.subscribe(onNext: { out.append("\($0)") }, onCompleted: { out.append("|") })
            subscription.dispose()
            return out
        }
        var made = 0
        let deferred = Infallible<Int>.deferred { made += 1; return .just(made * 10) }
        #expect(made == 0)
        #expect(record(Infallible.just(1)) == ["1", "|"])
        #expect(record(Infallible.of(1, 2, 3)) == ["1", "2", "3", "|"])
        #expect(record(Infallible.from([4, 5])) == ["4", "5", "|"])
        #expect(record(Infallible.from(6...7)) == ["6", "7", "|"])
        #expect(record(Infallible<Int>.empty()) == ["|"])
        #expect(record(Infallible<Int>.never()) == [])
        #expect(record(deferred) == ["10", "|"])
        #expect(record(deferred) == ["20", "|"])
        #expect(record(Infallible.repeatElement(7).take(3)) == ["7", "7", "7", "|"])
    }

    @Test func factoriesOnAScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Infallible.just(1, scheduler: scheduler) }.events == [.next(201, 1), .completed(202)])
        let scheduler2 = TestScheduler(initialClock: 0)
        #expect(scheduler2.start { Infallible.of(1, 2, scheduler: scheduler2) }.events == [.next(201, 1), .next(202, 2), .completed(203)])
    }

    @Test func timerAndInterval() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Infallible<Int>.timer(.seconds(300), scheduler: scheduler) }.events == [.next(500, 0), .completed(500)])
        let periodic = TestScheduler(initialClock: 0)
        let res = periodic.start(disposed: 600) { Infallible<Int>.timer(.seconds(50), period: .seconds(100), scheduler: periodic) }
        #expect(res.events == [.next(250, 0), .next(350, 1), .next(450, 2), .next(550, 3)])
        let interval = TestScheduler(initialClock: 0)
        let ticks = interval.start(disposed: 560) { Infallible<Int>.interval(.seconds(100), scheduler: interval) }
        #expect(ticks.events == [.next(300, 0), .next(400, 1), .next(500, 2)])
    }

    // MARK: - From a sequence that may fail

    @Test func onErrorJustReturnSendsTheElementAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .error(230, testError), .next(240, 3)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(230, -1), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func onErrorJustReturnLeavesACompletingSourceAlone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
        #expect(res.events == [.next(210, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func onErrorFallbackToSubscribesTheFallbackAtTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let ys = scheduler.createColdObservable([.next(10, 8), .next(20, 9), .completed(30)])
        let res = scheduler.start { xs.asInfallible(onErrorFallbackTo: ys.asInfallible(onErrorJustReturn: 0)) }
        #expect(res.events == [.next(210, 1), .next(240, 8), .next(250, 9), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 260)])
    }

    @Test func onErrorRecoverGetsTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        var seen: [String] = []
        let res = scheduler.start {
            xs.asInfallible(onErrorRecover: { error in
                seen.append("\(error)")
                return .just(9)
            })
        }
        #expect(res.events == [.next(210, 1), .next(230, 9), .completed(230)])
        #expect(seen == ["\(testError)"])
    }

    @Test func driversSignalsAndRelaysAsInfallible() {
        let behavior = BehaviorRelay(value: 1)
        let publish = PublishRelay<Int>()
        var fromBehavior: [Int] = [], fromPublish: [Int] = []
        let a = behavior.asInfallible().subscribe(onNext: { fromBehavior.append($0) })
        let b = publish.asInfallible().subscribe(onNext: { fromPublish.append($0) })
        behavior.accept(2)
        publish.accept(3)
        a.dispose()
        b.dispose()
        #expect(fromBehavior == [1, 2])
        #expect(fromPublish == [3])

        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        var res: TestableObserver<Int>?
        SharingScheduler.mock(scheduler: scheduler) {
            res = scheduler.start { xs.asDriver(onErrorJustReturn: -1).asInfallible() }
        }
        #expect(res?.events == [.next(211, 1), .next(221, -1), .completed(221)])
    }

    @Test func asDriverDeliversOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        var res: TestableObserver<Int>?
        SharingScheduler.mock(scheduler: scheduler) {
            res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).asDriver() }
        }
        #expect(res?.events == [.next(211, 1), .next(221, 2), .completed(231)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    // MARK: - Operators

    @Test func elementOperators() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 2), .next(240, 13), .next(250, 4), .completed(260)])
        let source = xs.asInfallible(onErrorJustReturn: 0)
        let mapped = scheduler.start { source.map { $0 * 10 } }
        #expect(mapped.events == [.next(210, 10), .next(220, 10), .next(230, 20), .next(240, 130), .next(250, 40), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
        let filtered = TestScheduler(initialClock: 0)
        let ys = filtered.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        #expect(filtered.start { ys.asInfallible(onErrorJustReturn: 0).filter { $0.isMultiple(of: 2) } }.events == [.next(220, 2), .next(240, 4), .completed(250)])
    }

    @Test func compactMapScanStartWithTakeSkip() {
        func run<Result: Equatable>(_ make: @escaping (Infallible<Int>) -> Infallible<Result>) -> [Recorded<Event<Result>>] {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 1), .completed(250)])
            return scheduler.start { make(xs.asInfallible(onErrorJustReturn: 0)) }.events
        }
        #expect(run { $0.compactMap { $0 == 2 ? nil : "\($0)" } } == [.next(210, "1"), .next(230, "3"), .next(240, "1"), .completed(250)])
        #expect(run { $0.scan(0, accumulator: +) } == [.next(210, 1), .next(220, 3), .next(230, 6), .next(240, 7), .completed(250)])
        #expect(run { $0.scan(into: [Int]()) { $0.append($1) }.map { $0.count } } == [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        #expect(run { $0.startWith(-1, 0) } == [.next(200, -1), .next(200, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 1), .completed(250)])
        #expect(run { $0.take(2) } == [.next(210, 1), .next(220, 2), .completed(220)])
        #expect(run { $0.skip(2) } == [.next(230, 3), .next(240, 1), .completed(250)])
        #expect(run { $0.take(while: { $0 < 3 }) } == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(run { $0.take(while: { $0 < 3 }, behavior: .inclusive) } == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
        #expect(run { $0.take(until: { $0 == 2 }) } == [.next(210, 1), .completed(220)])
        #expect(run { $0.skip(while: { $0 < 3 }) } == [.next(230, 3), .next(240, 1), .completed(250)])
    }

    @Test func distinctUntilChangedForms() {
        struct Pizza: Equatable { let id: Int; let name: String }
        func run(_ make: (Infallible<Pizza>) -> Infallible<Pizza>) -> [Int] {
            var ids: [Int] = []
            let pizzas = [Pizza(id: 1, name: "a"), Pizza(id: 1, name: "b"), Pizza(id: 2, name: "b"), Pizza(id: 2, name: "b"), Pizza(id: 12, name: "c")]
            _ = make(Infallible.from(pizzas)).subscribe(onNext: { ids.append($0.id) })
            return ids
        }
        #expect(run { $0.distinctUntilChanged() } == [1, 1, 2, 12])
        #expect(run { $0.distinctUntilChanged { $0.name } } == [1, 1, 12])
        #expect(run { $0.distinctUntilChanged(at: \.id) } == [1, 2, 12])
        #expect(run { $0.distinctUntilChanged { $0.id % 10 == $1.id % 10 } } == [1, 2])
        #expect(run { $0.distinctUntilChanged({ $0.id }, comparer: { $0 / 10 == $1 / 10 }) } == [1, 12])
    }

    @Test func debounceAndThrottle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(300, 3), .completed(400)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).debounce(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(250, 2), .next(330, 3), .completed(400)])
        let throttling = TestScheduler(initialClock: 0)
        let ys = throttling.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(300, 4), .completed(400)])
        let throttled = throttling.start { ys.asInfallible(onErrorJustReturn: 0).throttle(.seconds(50), scheduler: throttling) }
        #expect(throttled.events == [.next(210, 1), .next(260, 3), .next(310, 4), .completed(400)])
        let notLatest = TestScheduler(initialClock: 0)
        let zs = notLatest.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(300, 4), .completed(400)])
        let first = notLatest.start { zs.asInfallible(onErrorJustReturn: 0).throttle(.seconds(50), latest: false, scheduler: notLatest) }
        #expect(first.events == [.next(210, 1), .next(300, 4), .completed(400)])
    }

    @Test func flatMapFamily() {
        func run(_ make: @escaping (Infallible<Int>, TestScheduler) -> Infallible<Int>) -> [Recorded<Event<Int>>] {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(260)])
            return scheduler.start { make(xs.asInfallible(onErrorJustReturn: 0), scheduler) }.events
        }
        // Each element n becomes n*10 after 10 ticks and n*100 after 20, then completes.
        func inner(_ n: Int, _ scheduler: TestScheduler) -> Infallible<Int> {
            scheduler.createColdObservable([.next(10, n * 10), .next(20, n * 100), .completed(20)]).asInfallible(onErrorJustReturn: 0)
        }
        #expect(run { s, t in s.flatMap { inner($0, t) } } == [.next(220, 10), .next(225, 20), .next(230, 100), .next(235, 200), .completed(260)])
        #expect(run { s, t in s.flatMapLatest { inner($0, t) } } == [.next(225, 20), .next(235, 200), .completed(260)])
        #expect(run { s, t in s.flatMapFirst { inner($0, t) } } == [.next(220, 10), .next(230, 100), .completed(260)])
        #expect(run { s, t in s.concatMap { inner($0, t) } } == [.next(220, 10), .next(230, 100), .next(240, 20), .next(250, 200), .completed(260)])
    }

    @Test func mergeAndConcat() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .next(30, 3), .completed(40)]).asInfallible(onErrorJustReturn: 0)
        let b = scheduler.createColdObservable([.next(20, 2), .completed(50)]).asInfallible(onErrorJustReturn: 0)
        #expect(scheduler.start { Infallible.merge(a, b) }.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let s2 = TestScheduler(initialClock: 0)
        let c = s2.createColdObservable([.next(10, 1), .next(30, 3), .completed(40)]).asInfallible(onErrorJustReturn: 0)
        let d = s2.createColdObservable([.next(20, 2), .completed(50)]).asInfallible(onErrorJustReturn: 0)
        // The collection form merges (RxSwift 6's concatenates by mistake).
        #expect(s2.start { Infallible.merge([c, d] as ContiguousArray) }.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let s3 = TestScheduler(initialClock: 0)
        let e = s3.createColdObservable([.next(10, 1), .next(30, 3), .completed(40)]).asInfallible(onErrorJustReturn: 0)
        let f = s3.createColdObservable([.next(20, 2), .completed(50)]).asInfallible(onErrorJustReturn: 0)
        #expect(s3.start { Infallible.concat(e, f) }.events == [.next(210, 1), .next(230, 3), .next(260, 2), .completed(290)])
        let s4 = TestScheduler(initialClock: 0)
        let g = s4.createColdObservable([.next(10, 1), .completed(20)]).asInfallible(onErrorJustReturn: 0)
        let h = s4.createColdObservable([.next(5, 2), .completed(10)]).asInfallible(onErrorJustReturn: 0)
        #expect(s4.start { g.concat(h) }.events == [.next(210, 1), .next(225, 2), .completed(230)])
        var out: [Int] = []
        _ = Infallible.concat([Infallible.of(1, 2), .just(3)]).subscribe(onNext: { out.append($0) })
        #expect(out == [1, 2, 3])
    }

    @Test func combineLatestArities() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)]).asInfallible(onErrorJustReturn: 0)
        let b = scheduler.createHotObservable([.next(220, "A"), .next(240, "B"), .completed(250)]).asInfallible(onErrorJustReturn: "")
        let res = scheduler.start { Infallible.combineLatest(a, b).map { "\($0)\($1)" } }
        #expect(res.events == [.next(220, "1A"), .next(230, "2A"), .next(240, "2B"), .completed(300)])

        let s3 = TestScheduler(initialClock: 0)
        let x = s3.createHotObservable([.next(210, 1), .completed(300)]).asInfallible(onErrorJustReturn: 0)
        let y = s3.createHotObservable([.next(220, 2), .next(240, 20), .completed(300)]).asInfallible(onErrorJustReturn: 0)
        let z = s3.createHotObservable([.next(230, 3), .completed(300)]).asInfallible(onErrorJustReturn: 0)
        let sum = s3.start { Infallible.combineLatest(x, y, z) { $0 + $1 + $2 } }
        #expect(sum.events == [.next(230, 6), .next(240, 24), .completed(300)])

        var eight: [Int] = []
        let one = Infallible.just(1)
        _ = Infallible.combineLatest(one, one, one, one, one, one, one, one) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
            .subscribe(onNext: { eight.append($0) })
        #expect(eight == [8])
    }

    @Test func combineLatestCollections() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)]).asInfallible(onErrorJustReturn: 0)
        let b = scheduler.createHotObservable([.next(220, 10), .completed(250)]).asInfallible(onErrorJustReturn: 0)
        let res = scheduler.start { Infallible.combineLatest([a, b]).map { $0.description } }
        #expect(res.events == [.next(220, "[1, 10]"), .next(230, "[2, 10]"), .completed(260)])
        let s2 = TestScheduler(initialClock: 0)
        let c = s2.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)]).asInfallible(onErrorJustReturn: 0)
        let d = s2.createHotObservable([.next(220, 10), .completed(250)]).asInfallible(onErrorJustReturn: 0)
        let sums = s2.start { Infallible.combineLatest([c, d]) { $0.reduce(0, +) } }
        #expect(sums.events == [.next(220, 11), .next(230, 12), .completed(260)])
        var empty: [String] = []
        _ = Infallible<Int>.combineLatest([Infallible<Int>]()).subscribe(onNext: { empty.append("\($0)") }, onCompleted: { empty.append("|") })
        // As RxSwift: the selector gets the empty array once, then the sequence completes.
        #expect(empty == ["[]", "|"])
    }

    @Test func zipArities() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)]).asInfallible(onErrorJustReturn: 0)
        let b = scheduler.createHotObservable([.next(215, "A"), .next(240, "B"), .completed(250)]).asInfallible(onErrorJustReturn: "")
        let res = scheduler.start { Infallible.zip(a, b).map { "\($0)\($1)" } }
        // As in RxSwift, zip ends when every source has, even if one ended with nothing left to pair.
        #expect(res.events == [.next(215, "1A"), .next(240, "2B"), .completed(300)])

        let s2 = TestScheduler(initialClock: 0)
        let x = s2.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)]).asInfallible(onErrorJustReturn: 0)
        let y = s2.createHotObservable([.next(230, 10), .next(240, 20), .completed(300)]).asInfallible(onErrorJustReturn: 0)
        let z = s2.createHotObservable([.next(250, 100), .completed(260)]).asInfallible(onErrorJustReturn: 0)
        let sum = s2.start { Infallible.zip(x, y, z) { $0 + $1 + $2 } }
        #expect(sum.events == [.next(250, 111), .completed(300)])

        var eight: [Int] = []
        let one = Infallible.of(1, 2)
        _ = Infallible.zip(one, one, one, one, one, one, one, one) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
            .subscribe(onNext: { eight.append($0) })
        #expect(eight == [8, 16])

        var arrays: [[Int]] = [], sums: [Int] = []
        _ = Infallible.zip([Infallible.of(1, 2), .of(10, 20, 30)]).subscribe(onNext: { arrays.append($0) })
        _ = Infallible.zip([Infallible.of(1, 2), .of(10, 20, 30)]) { $0.reduce(0, +) }.subscribe(onNext: { sums.append($0) })
        #expect(arrays == [[1, 10], [2, 20]])
        #expect(sums == [11, 22])
    }

    @Test func withLatestFromTakesSecondsLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)]).asInfallible(onErrorJustReturn: 0)
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(300)]).asInfallible(onErrorJustReturn: "")
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        #expect(res.events == [.next(230, "2a"), .next(250, "3b"), .completed(260)])
        let s2 = TestScheduler(initialClock: 0)
        let x2 = s2.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)]).asInfallible(onErrorJustReturn: 0)
        let y2 = s2.createHotObservable([.next(220, "a"), .completed(300)]).asInfallible(onErrorJustReturn: "")
        #expect(s2.start { x2.withLatestFrom(y2) }.events == [.next(230, "a"), .completed(260)])
    }

    @Test func takeAndSkipUntilAnotherSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        let stop = scheduler.createHotObservable([.next(240, ()), .completed(300)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).take(until: stop.asInfallible(onErrorJustReturn: ())) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(stop.subscriptions == [Subscription(200, 240)])

        let s2 = TestScheduler(initialClock: 0)
        let ys = s2.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        let gate = s2.createHotObservable([.next(240, ()), .completed(300)])
        let skipped = s2.start { ys.asInfallible(onErrorJustReturn: 0).skip(until: gate) }
        #expect(skipped.events == [.next(250, 3), .completed(260)])

        let s3 = TestScheduler(initialClock: 0)
        let zs = s3.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        let taken = s3.start { zs.asInfallible(onErrorJustReturn: 0).take(for: .seconds(35), scheduler: s3) }
        #expect(taken.events == [.next(210, 1), .next(230, 2), .completed(235)])
    }

    @Test func shareReplaysToLateSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        let shared = xs.asInfallible(onErrorJustReturn: 0).share(replay: 1)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.asObservable().subscribe(early)) }
        scheduler.scheduleAt(230) { subscriptions.append(shared.asObservable().subscribe(late)) }
        scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        #expect(early.events == [.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        #expect(late.events == [.next(230, 2), .next(240, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func doCallsItsClosuresInOrder() {
        var log: [String] = []
        let subscription = Infallible.of(1)
            .do(onNext: { log.append("next \($0)") }, afterNext: { log.append("after \($0)") },
                onCompleted: { log.append("completed") }, afterCompleted: { log.append("after completed") },
                onSubscribe: { log.append("subscribe") }, onSubscribed: { log.append("subscribed") },
                onDispose: { log.append("dispose") })
            .subscribe(onNext: { log.append("got \($0)") })
        subscription.dispose()
        // `of` sends from the current-thread trampoline, so the subscription is made before the first element.
        #expect(log == ["subscribe", "subscribed", "next 1", "got 1", "after 1", "completed", "after completed", "dispose"])
    }

    // MARK: - Subscribing and binding

    @Test func subscribeCallsOnNextOnCompletedThenOnDisposed() {
        var log: [String] = []
        _ = Infallible.of(1, 2).subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("|") }, onDisposed: { log.append("disposed") })
        #expect(log == ["1", "2", "|", "disposed"])
    }

    @Test func subscribeWithObjectPassesItAndIgnoresEventsOnceItIsGone() {
        final class Owner { var seen: [String] = [] }
        let relay = PublishRelay<Int>()
        var owner: Owner? = Owner()
        weak let weakOwner = owner
        var calls = 0
        let subscription = relay.asInfallible().subscribe(
            with: owner!,
            onNext: { owner, value in owner.seen.append("\(value)"); calls += 1 },
            onCompleted: { owner in owner.seen.append("|") },
            onDisposed: { owner in owner.seen.append("disposed") }
        )
        relay.accept(1)
        #expect(owner?.seen == ["1"])
        owner = nil
        #expect(weakOwner == nil)
        relay.accept(2)
        subscription.dispose()
        #expect(calls == 1)

        let kept = Owner()
        _ = Infallible.of(1, 2).subscribe(with: kept, onNext: { $0.seen.append("\($1)") }, onCompleted: { $0.seen.append("|") }, onDisposed: { $0.seen.append("disposed") })
        #expect(kept.seen == ["1", "2", "|", "disposed"])
    }

    @Test func bindToObserversAndRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        _ = Infallible.of(1, 2).bind(to: observer)
        _ = Infallible.of(3).bind(to: optional)
        #expect(observer.events == [.next(0, 1), .next(0, 2), .completed(0)])
        #expect(optional.events == [.next(0, Optional(3)), .completed(0)])

        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let publish = PublishRelay<Int>()
        let optionalPublish = PublishRelay<Int?>()
        var published: [Int] = [], optionallyPublished: [Int?] = []
        let bag = DisposeBag()
        publish.subscribe(onNext: { published.append($0) }).disposed(by: bag)
        optionalPublish.subscribe(onNext: { optionallyPublished.append($0) }).disposed(by: bag)
        Infallible.of(4, 5).bind(to: behavior).disposed(by: bag)
        Infallible.of(6).bind(to: optionalBehavior).disposed(by: bag)
        Infallible.of(7, 8).bind(to: publish, publish).disposed(by: bag)
        Infallible.of(9).bind(to: optionalPublish).disposed(by: bag)
        #expect(behavior.value == 5)
        #expect(optionalBehavior.value == 6)
        #expect(published == [7, 7, 8, 8])
        #expect(optionallyPublished == [9])

        var seen: [Int] = []
        _ = Infallible.of(1, 2).bind(onNext: { seen.append($0) })
        #expect(seen == [1, 2])
        let count = Infallible.of(1, 2, 3).bind(to: { (infallible: Infallible<Int>) -> Int in
            var n = 0
            _ = infallible.subscribe(onNext: { _ in n += 1 })
            return n
        })
        #expect(count == 3)
        let curried = Infallible.just(2).bind(to: { (infallible: Infallible<Int>) in { (factor: Int) -> Int in
            var result = 0
            _ = infallible.subscribe(onNext: { result = $0 * factor })
            return result
        } }, curriedArgument: 21)
        #expect(curried == 42)
    }

    @Test func valuesEndsWhenTheSequenceCompletes() async {
        var out: [Int] = []
        for await value in Infallible.of(1, 2, 3).values { out.append(value) }
        #expect(out == [1, 2, 3])
    }
}

extension InfallibleTests {
    /// The shape RxSwift 6's own arity tests use: tuples splatted into a two- or four-argument closure.
    @Test func combineLatestTupleSplatsIntoAClosure() {
        let scheduler = TestScheduler(initialClock: 0)
        let stream = { scheduler.createColdObservable([.next(1, 1)]).asInfallible(onErrorFallbackTo: .never()) }
        let (a, b) = (stream(), stream())
        let pair = scheduler.start(created: 0, subscribed: 0, disposed: 100) { Infallible.combineLatest(a, b).map { $0 + $1 } }
        #expect(pair.events == [.next(1, 2)])
        let s2 = TestScheduler(initialClock: 0)
        let stream2 = { s2.createColdObservable([.next(1, 1)]).asInfallible(onErrorFallbackTo: .never()) }
        let (e, f, g, h) = (stream2(), stream2(), stream2(), stream2())
        let four = s2.start(created: 0, subscribed: 0, disposed: 100) { Infallible.combineLatest(e, f, g, h).map { $0 + $1 + $2 + $3 } }
        #expect(four.events == [.next(1, 4)])
    }

    @Test func createdObserverIsDetachedOnDisposal() {
        var observer: ((InfallibleEvent<Int>) -> Void)?
        let infallible = Infallible<Int>.create { o in
            observer = o
            return Disposables.create()
        }
        var elements: [Int] = []
        let subscription = infallible.subscribe(onNext: { elements.append($0) })
        observer?(.next(0))
        subscription.dispose()
        observer?(.next(1))
        #expect(elements == [0])
    }

    @Test func observableFlatMapLatestToInfallibleIsInfallible() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(260)])
        let res = scheduler.start { () -> Infallible<Int> in
            xs.flatMapLatest { n in
                scheduler.createColdObservable([.next(10, n * 10), .next(20, n * 100), .completed(20)]).asInfallible(onErrorJustReturn: 0)
            }
        }
        #expect(res.events == [.next(225, 20), .next(235, 200), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func aFailureIsReportedAsAProgrammingError() {
        struct Bad: Error {}
        var events: [InfallibleEvent<Int>] = []
        var log: [String] = []
        let reports = recordingProgrammingErrors {
            _ = Infallible.of(1, 2).distinctUntilChanged { (n: Int) -> Int in if n == 2 { throw Bad() }; return n }
                .subscribe { events.append($0) }
            _ = Infallible.of(1, 2).distinctUntilChanged { (n: Int) -> Int in if n == 2 { throw Bad() }; return n }
                .subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("|") }, onDisposed: { log.append("disposed") })
        }
        #expect(events == [.next(1)])
        #expect(log == ["1", "disposed"])
        #expect(reports == ["an Infallible failed: Bad()", "an Infallible failed: Bad()"])
    }
}
