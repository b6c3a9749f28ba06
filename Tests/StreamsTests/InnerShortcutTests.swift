@testable import Streams
import StreamsTesting
import TestSupport
import Testing

/// The inner shortcut of the flattening operators (`InnerShortcut`): an inner `just`, `empty`,
/// `from(optional:)` or `of`/`from` on its default scheduler is delivered by the operator
/// itself, without subscribing to it. Each scenario runs twice, once with the inners as the
/// selector makes them (the shortcut) and once with each inner behind `map { $0 }`, which hides
/// it from the shortcut and so subscribes to it as before; both must log the same events, in
/// the same order, which the test also spells out.
@Suite(.resourceCheck) struct InnerShortcutTests {
    /// How the inners of a scenario reach the operator.
    enum Route: CaseIterable {
        /// As made: the operator takes the shortcut.
        case shortcut
        /// Behind `map { $0 }`: the operator subscribes to it.
        case subscription

        /// `inner` as this route hands it to the operator.
        func callAsFunction(_ inner: Observable<Int>) -> Observable<Int> {
            self == .shortcut ? inner : inner.map { $0 }
        }
    }

    /// What a scenario saw, in order.
    final class EventLog {
        private(set) var entries: [String] = []
        func add(_ entry: String) { entries.append(entry) }
        func add(_ value: Int) { entries.append("\(value)") }
    }

    /// Runs `scenario` on both routes and checks that both logged `expected`.
    private func check(_ expected: [String], _ scenario: (Route) -> [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for route in Route.allCases {
            #expect(scenario(route) == expected, "route \(route)", sourceLocation: sourceLocation)
        }
    }

    // MARK: flatMap and merge

    @Test func aJustFromPlainCodeIsDeliveredInsideTheTrampolineAsItsSubscriptionWould() {
        // Work scheduled on the current thread while the element is delivered runs after it.
        check(["1", "after nested", "nested 7", "nested 8", "2"]) { route in
            let log = EventLog()
            let subject = PublishSubject<Int>()
            let subscription = subject.flatMap { route(Observable.just($0)) }
                .subscribe(onNext: { value in
                    log.add(value)
                    if value == 1 {
                        _ = Observable.of(7, 8).subscribe(onNext: { log.add("nested \($0)") })
                        log.add("after nested")
                    }
                })
            subject.onNext(1)
            subject.onNext(2)
            subscription.dispose()
            return log.entries
        }
    }

    @Test func ofInnersFromPlainCodeInterleaveWithTrampolineWorkAsTheirStepsWould() {
        check(["1", "2", "nested 7", "10", "20", "nested 8", "|"]) { route in
            let log = EventLog()
            let subject = DirectSource()
            let subscription = subject.observable.flatMap { route(Observable.of($0, $0 * 10)) }
                .subscribe(onNext: { value in
                    log.add(value)
                    if value == 1 {
                        subject.onNext(2)   // re-entrant: a second inner while the first delivers
                        _ = Observable.of(7, 8).subscribe(onNext: { log.add("nested \($0)") })
                    }
                }, onCompleted: { log.add("|") })
            subject.onNext(1)
            subject.onCompleted()
            subscription.dispose()
            return log.entries
        }
    }

    @Test func ofInnersOfASynchronousOuterWaitForTheTrampolineThatRunsIt() {
        check(["1", "10", "2", "20", "3", "30", "|"]) { route in
            let log = EventLog()
            let subscription = Observable.of(1, 2, 3)
                .flatMap { route(Observable.of($0, $0 * 10)) }
                .subscribe(onNext: { log.add($0) }, onCompleted: { log.add("|") })
            subscription.dispose()
            return log.entries
        }
    }

    @Test func emptyAndOptionalInnersEndAtOnceAndTheResultEndsWithTheOuter() {
        check(["1", "3", "|"]) { route in
            let log = EventLog()
            let subject = PublishSubject<Int>()
            let subscription = subject.flatMap { value -> Observable<Int> in
                switch value {
                case 1: route(Observable.from(optional: 1))
                case 2: route(Observable.from(optional: nil))
                case 3: route(Observable.from([3]))
                default: route(Observable.empty())
                }
            }
            .subscribe(onNext: { log.add($0) }, onCompleted: { log.add("|") })
            for value in 1...4 { subject.onNext(value) }
            subject.onCompleted()
            subscription.dispose()
            return log.entries
        }
    }

    /// The operators whose sinks run `of`/`from` inners by steps.
    enum Flattening: CaseIterable {
        case flatMap
        case flatMapLatest

        /// `source` flattened by this operator with `select`.
        func callAsFunction(_ source: Observable<Int>, _ select: @escaping (Int) -> Observable<Int>) -> Observable<Int> {
            self == .flatMap ? source.flatMap(select) : source.flatMapLatest(select)
        }
    }

    @Test(arguments: Flattening.allCases)
    func disposingInsideOnNextStopsTheRestOfAnOfInner(flattening: Flattening) {
        // Once disposed, the shortcut takes no further element from the sequence. (A subscription
        // made while no trampoline runs is disposed only when `subscribe` returns: its steps take
        // the other elements too, and drop them.)
        check(["1", "taken 1 or subscribed"]) { route in
            let log = EventLog()
            let taken = ShortcutCounter()
            let subject = PublishSubject<Int>()
            let holder = ShortcutDisposableHolder()
            holder.disposable = flattening(subject.asObservable()) { _ in route(Observable.from(ShortcutCountingSequence(values: [1, 2, 3], taken: taken))) }
                .subscribe(onNext: { value in
                    log.add(value)
                    holder.disposable?.dispose()
                })
            subject.onNext(0)
            log.add(taken.value == 1 || route == .subscription ? "taken 1 or subscribed" : "taken \(taken.value)")
            return log.entries
        }
    }

    @Test func anErrorFromTheSelectorEndsTheMerge() {
        check(["1", "error"]) { route in
            let log = EventLog()
            let subject = PublishSubject<Int>()
            let subscription = subject.flatMap { value -> Observable<Int> in
                if value == 2 { throw testError }
                return route(Observable.of(value))
            }
            .subscribe(onNext: { log.add($0) }, onError: { _ in log.add("error") })
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            subscription.dispose()
            return log.entries
        }
    }

    @Test(arguments: Flattening.allCases)
    func anOuterCompletingWhileAnOfInnerDeliversCompletesAfterIt(flattening: Flattening) {
        check(["1", "2", "3", "|"]) { route in
            let log = EventLog()
            let subject = DirectSource()
            let subscription = flattening(subject.observable) { _ in route(Observable.of(1, 2, 3)) }
                .subscribe(onNext: { value in
                    log.add(value)
                    if value == 1 { subject.onCompleted() }
                }, onCompleted: { log.add("|") })
            subject.onNext(0)
            subscription.dispose()
            return log.entries
        }
    }

    // MARK: concatMap and merge(maxConcurrent:)

    @Test func anInnerArrivingWhileAConcatMapInnerDeliversWaitsBehindIt() {
        check(["1", "2", "3", "40", "6", "60", "|"]) { route in
            let log = EventLog()
            let subject = DirectSource()
            let subscription = subject.observable.concatMap { value -> Observable<Int> in
                switch value {
                case 1: route(Observable.of(1, 2, 3))
                case 4: route(Observable.just(40))
                case 5: route(Observable.empty())
                default: route(Observable.of(value, value * 10))
                }
            }
            .subscribe(onNext: { value in
                log.add(value)
                if value == 1 {
                    // Re-entrant: each waits for the running inner, and for one another.
                    subject.onNext(4)
                    subject.onNext(5)
                    subject.onNext(6)
                    subject.onCompleted()
                }
            }, onCompleted: { log.add("|") })
            subject.onNext(1)
            subscription.dispose()
            return log.entries
        }
    }

    @Test func shortcutInnersWaitTheirTurnBehindASlowConcatMapInner() {
        for route in Route.allCases {
            let scheduler = TestScheduler(initialClock: 0)
            let slow = scheduler.createColdObservable([.next(10, 1), .completed(30)])
            let xs = scheduler.createHotObservable([
                .next(210, 0), .next(215, 1), .next(216, 2), .next(217, 3), .next(250, 4), .completed(300),
            ])
            let res = scheduler.start {
                xs.concatMap { value -> Observable<Int> in
                    switch value {
                    case 0: slow.asObservable()
                    case 1: route(Observable.just(10))
                    case 2: route(Observable.empty())
                    case 3: route(Observable.of(30, 31))
                    default: route(Observable.just(40))
                    }
                }
            }
            #expect(res.events == [
                .next(220, 1), .next(240, 10), .next(240, 30), .next(240, 31), .next(250, 40), .completed(300),
            ], "route \(route)")
        }
    }

    @Test func shortcutInnersOfMergeWithALimitKeepArrivalOrder() {
        for route in Route.allCases {
            let scheduler = TestScheduler(initialClock: 0)
            let slow = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
            let xs = scheduler.createHotObservable([
                .next(210, 0), .next(212, 0), .next(215, 3), .next(216, 4), .completed(260),
            ])
            let res = scheduler.start {
                xs.map { value -> Observable<Int> in
                    value == 0 ? slow.asObservable() : route(Observable.of(value * 10, value * 10 + 1))
                }
                .merge(maxConcurrent: 2)
            }
            #expect(res.events == [
                .next(220, 1), .next(222, 1), .next(230, 2), .next(232, 2),
                // 3 and 4 wait for a slot; the first one to free (at 240) runs both at once.
                .next(240, 30), .next(240, 31), .next(240, 40), .next(240, 41), .completed(260),
            ], "route \(route)")
        }
    }

    @Test func aJustOrOfInVirtualTimeIsDeliveredWhenItsOuterElementArrives() {
        for route in Route.allCases {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
            let res = scheduler.start {
                xs.flatMap { value in value == 2 ? route(Observable.of(20, 21)) : route(Observable.just(value)) }
            }
            #expect(res.events == [.next(210, 1), .next(220, 20), .next(220, 21), .next(230, 3), .completed(240)], "route \(route)")
        }
    }

    // MARK: flatMapLatest and switchLatest

    @Test func aLatestOfInnerReplacedWhileItDeliversStopsAndTheNewOneRuns() {
        check(["10", "20", "21", "22", "|"]) { route in
            let log = EventLog()
            let subject = DirectSource()
            let subscription = subject.observable.flatMapLatest { route(Observable.of($0, $0 + 1, $0 + 2)) }
                .subscribe(onNext: { value in
                    log.add(value)
                    if value == 10 { subject.onNext(20) }
                }, onCompleted: { log.add("|") })
            subject.onNext(10)
            subject.onCompleted()
            subscription.dispose()
            return log.entries
        }
    }

    @Test func aSynchronousLatestInnerIsDoneSoTheOuterCompletionCompletes() {
        check(["1", "2", "|"]) { route in
            let log = EventLog()
            let subject = PublishSubject<Int>()
            let subscription = subject.flatMapLatest { value in value == 1 ? route(Observable.of(1, 2)) : route(Observable.empty()) }
                .subscribe(onNext: { log.add($0) }, onCompleted: { log.add("|") })
            subject.onNext(1)
            subject.onNext(2)
            subject.onCompleted()
            subscription.dispose()
            return log.entries
        }
    }

    @Test func switchLatestRunsShortcutInnersAndReplacesARunningOne() {
        check(["1", "2", "3", "4", "5", "|"]) { route in
            let log = EventLog()
            let outer = PublishSubject<Observable<Int>>()
            let running = PublishSubject<Int>()
            let subscription = outer.switchLatest()
                .subscribe(onNext: { log.add($0) }, onCompleted: { log.add("|") })
            outer.onNext(route(Observable.just(1)))
            outer.onNext(route(Observable.empty()))
            outer.onNext(route(Observable.of(2, 3)))
            outer.onNext(running.asObservable())
            running.onNext(4)
            outer.onNext(route(Observable.just(5)))
            running.onNext(99)   // replaced: ignored
            outer.onCompleted()
            subscription.dispose()
            return log.entries
        }
    }

    @Test func flatMapLatestInVirtualTimeWithShortcutInnersAndASelectorError() {
        for route in Route.allCases {
            let scheduler = TestScheduler(initialClock: 0)
            let running = scheduler.createColdObservable([.next(10, 1), .next(50, 2), .completed(60)])
            let xs = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .next(240, 2), .next(250, 3), .completed(260)])
            let res = scheduler.start {
                xs.flatMapLatest { value -> Observable<Int> in
                    switch value {
                    case 0: running.asObservable()
                    case 1: route(Observable.of(7, 8))
                    case 2: route(Observable.empty())
                    default: throw testError
                    }
                }
            }
            #expect(res.events == [.next(220, 1), .next(230, 7), .next(230, 8), .error(250, testError)], "route \(route)")
            #expect(running.subscriptions == [Subscription(210, 230)], "route \(route)")
        }
    }

    // MARK: flatMapFirst

    @Test func flatMapFirstTakesTheNextElementOnceAJustHasBeenDelivered() {
        check(["1", "3", "|"]) { route in
            let log = EventLog()
            let subject = DirectSource()
            let subscription = subject.observable.flatMapFirst { value in value == 2 ? route(Observable.empty()) : route(Observable.just(value)) }
                .subscribe(onNext: { value in
                    log.add(value)
                    if value == 1 { subject.onNext(99) }   // the just is still running: dropped
                }, onCompleted: { log.add("|") })
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            subject.onCompleted()
            subscription.dispose()
            return log.entries
        }
    }

    // MARK: combineLatest and zip take a just, an empty or a from(optional:) source the same way

    @Test func combineLatestTakesAJustAndAFromOptionalSourceAsTheirSubscriptionsWould() {
        check(["1+2+10", "1+2+20", "|"]) { route in
            let log = EventLog()
            let subject = PublishSubject<Int>()
            let subscription = Observable.combineLatest(
                route(Observable.just(1)), route(Observable.from(optional: 2)), subject
            ) { "\($0)+\($1)+\($2)" }
                .subscribe(onNext: { log.add($0) }, onCompleted: { log.add("|") })
            subject.onNext(10)
            subject.onNext(20)
            subject.onCompleted()
            subscription.dispose()
            return log.entries
        }
    }

    @Test func combineLatestWithAnEmptySourceCompletesWithTheNextElementOfAnother() {
        // As in RxSwift: a source that completed empty ends the sequence once an element
        // arrives while every other source has completed too.
        check(["subject observed", "|", "subject has no observer"]) { route in
            let log = EventLog()
            let subject = PublishSubject<Int>()
            let subscription = Observable.combineLatest(route(Observable.just(1)), route(Observable<Int>.empty()), subject) { $0 + $1 + $2 }
                .subscribe(onNext: { log.add($0) }, onCompleted: { log.add("|") })
            if subject.hasObservers { log.add("subject observed") }
            subject.onNext(10)
            if !subject.hasObservers { log.add("subject has no observer") }
            subscription.dispose()
            return log.entries
        }
    }

    @Test func zipTakesAJustSourceAsItsSubscriptionWould() {
        check(["1+10", "20 waits", "|"]) { route in
            let log = EventLog()
            let subject = PublishSubject<Int>()
            let subscription = Observable.zip(route(Observable.just(1)), subject) { "\($0)+\($1)" }
                .subscribe(onNext: { log.add($0) }, onCompleted: { log.add("|") })
            subject.onNext(10)
            subject.onNext(20)
            log.add("20 waits")
            subject.onCompleted()
            subscription.dispose()
            return log.entries
        }
    }

    @Test func zipWithAnEmptyOrANilSourceCompletesWhenTheOtherDoes() {
        check(["10 waits", "|", "|"]) { route in
            let log = EventLog()
            let subject = PublishSubject<Int>()
            let empty = Observable.zip(route(Observable<Int>.empty()), subject) { $0 + $1 }
                .subscribe(onNext: { log.add($0) }, onCompleted: { log.add("|") })
            let none = Observable.zip(subject, route(Observable<Int>.from(optional: nil))) { $0 + $1 }
                .subscribe(onNext: { log.add($0) }, onCompleted: { log.add("|") })
            subject.onNext(10)
            log.add("10 waits")
            subject.onCompleted()
            empty.dispose()
            none.dispose()
            return log.entries
        }
    }

    // MARK: the shortcut is taken, and only where it may be

    #if DEBUG
    private typealias Observer = AnyObserver<Int>

    /// Connects `merge` (a `flatMap`/`concatMap`) to an observer logging into `log`.
    private func connectMerge(_ merge: Observable<Int>, log: EventLog) -> MergeSink<Int, Observable<Int>, Observer> {
        let observer = Observer { event in if case .next(let value) = event { log.add(value) } }
        // swiftlint:disable:next force_cast
        return (merge as! Merge<Int, Observable<Int>>).connect(observer, handle: nil) as! MergeSink<Int, Observable<Int>, Observer>
    }

    /// Connects `latest` (a `flatMapLatest`) to an observer logging into `log`.
    private func connectSwitch(_ latest: Observable<Int>, log: EventLog) -> SwitchSink<Int, Observable<Int>, Observer> {
        let observer = Observer { event in if case .next(let value) = event { log.add(value) } }
        // swiftlint:disable:next force_cast
        return (latest as! Switch<Int, Observable<Int>>).connect(observer, handle: nil) as! SwitchSink<Int, Observable<Int>, Observer>
    }

    @Test func justEmptyAndOfInnersFromPlainCodeAreNotSubscribed() {
        let subject = PublishSubject<Int>()
        let select = { (value: Int) -> Observable<Int> in
            switch value % 4 {
            case 0: Observable.just(value)
            case 1: Observable.empty()
            case 2: Observable.of(value, value)
            default: Observable.from([value], scheduler: CurrentThreadScheduler.instance)
            }
        }
        let log = EventLog()
        let merge = connectMerge(subject.flatMap(select), log: log)
        let concat = connectMerge(subject.concatMap(select), log: log)
        let latest = connectSwitch(subject.flatMapLatest(select), log: log)
        for value in 0..<8 { subject.onNext(value) }
        #expect(merge.subscribedInnerCount == 0)
        #expect(concat.subscribedInnerCount == 0)
        #expect(latest.subscribedInnerCount == 0)
        #expect(log.entries.count == 3 * 8)
        for sink in [merge, concat] as [Disposable] + [latest] { sink.dispose() }
    }

    @Test func ofWithAnotherSchedulerOrInsideARunningTrampolineIsSubscribed() {
        let subject = PublishSubject<Int>()
        let log = EventLog()
        let scheduled = connectMerge(subject.flatMap { Observable.of($0, scheduler: ImmediateScheduler.instance) }, log: log)
        let latest = connectSwitch(subject.flatMapLatest { Observable.of($0, scheduler: ImmediateScheduler.instance) }, log: log)
        subject.onNext(1)
        #expect(scheduled.subscribedInnerCount == 1)
        #expect(latest.subscribedInnerCount == 1)
        scheduled.dispose()
        latest.dispose()

        let trampolined = connectMerge(subject.flatMap { Observable.of($0, $0) }, log: log)
        // Inside a running trampoline the steps of `of` wait behind what it runs: subscribed.
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            subject.onNext(2)
            #expect(log.entries == ["1", "1"])
            return Disposables.create()
        }
        #expect(trampolined.subscribedInnerCount == 1)
        #expect(log.entries == ["1", "1", "2", "2"])
        trampolined.dispose()
    }
    #endif
}

/// An outer sequence fed by hand that calls its observer directly, re-entrant calls included:
/// a subject would hold an event sent from inside one of its observers until its delivery in
/// progress returns, so the operator would never be re-entered.
final class DirectSource {
    private var observer: AnyObserver<Int>?

    /// The sequence; one subscriber at a time.
    var observable: Observable<Int> {
        Observable.create { observer in
            self.observer = observer
            return Disposables.create(with: { self.observer = nil })
        }
    }

    func onNext(_ value: Int) { observer?.onNext(value) }
    func onCompleted() { observer?.onCompleted() }
}

/// Counts what a `ShortcutCountingSequence` hands out.
final class ShortcutCounter {
    var value = 0
}

/// A sequence that counts the elements taken from it.
struct ShortcutCountingSequence: Sequence {
    let values: [Int]
    let taken: ShortcutCounter

    func makeIterator() -> AnyIterator<Int> {
        var index = 0
        return AnyIterator {
            guard index < values.count else { return nil }
            defer { index += 1 }
            taken.value += 1
            return values[index]
        }
    }
}

/// Holds a subscription that its own observer disposes.
final class ShortcutDisposableHolder {
    var disposable: Disposable?
}
