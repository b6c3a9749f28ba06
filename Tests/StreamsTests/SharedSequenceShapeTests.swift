import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

/// A type of the user's that conforms with `asSharedSequence()` only, as RxExample's
/// `ActivityIndicator` does.
private final class Loading: SharedSequenceConvertibleType {
    typealias Element = Bool
    typealias SharingStrategy = DriverSharingStrategy

    private let relay = BehaviorRelay(value: false)

    func set(_ value: Bool) { relay.accept(value) }

    func asSharedSequence() -> SharedSequence<DriverSharingStrategy, Bool> {
        relay.asDriver()
    }
}

/// The shapes RxCocoa declares: every convertible has `asObservable()`, and the static
/// operators take any convertibles of one sharing strategy.
@Suite(.resourceCheck) struct SharedSequenceShapeTests {
    @Test func aConvertibleThatGivesOnlyASharedSequenceHasAnObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let loading = Loading()
            scheduler.scheduleAt(210) { loading.set(true) }
            scheduler.scheduleAt(220) { loading.set(false) }
            let res = scheduler.start { loading.asObservable() }
            // A relay's driver delivers one scheduling step after the relay changes.
            #expect(res.events == [.next(201, false), .next(211, true), .next(221, false)])
        }
    }

    @Test func combineLatestTakesConvertiblesOfOneStrategy() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let loading = Loading()
            let names = scheduler.createHotObservable([.next(210, "a"), .next(230, "b")]).asDriver(onErrorJustReturn: "")
            scheduler.scheduleAt(220) { loading.set(true) }
            let res = scheduler.start {
                Driver.combineLatest(loading, names) { busy, name in busy ? name.uppercased() : name }.asObservable()
            }
            #expect(res.events == [.next(211, "a"), .next(221, "A"), .next(231, "B")])
        }
    }

    @Test func combineLatestOfThreeConvertiblesMakesTuples() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let loading = Loading()
            let count = scheduler.createHotObservable([.next(210, 1)]).asDriver(onErrorJustReturn: 0)
            let res = scheduler.start {
                Driver.combineLatest(loading, count, Driver.just("x")).map { "\($0)-\($1)-\($2)" }.asObservable()
            }
            #expect(res.events == [.next(211, "false-1-x")])
        }
    }

    @Test func zipTakesConvertiblesOfOneStrategy() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let loading = Loading()
            let numbers = scheduler.createHotObservable([.next(210, 1), .next(230, 2)]).asDriver(onErrorJustReturn: 0)
            scheduler.scheduleAt(220) { loading.set(true) }
            let res = scheduler.start {
                Driver.zip(loading, numbers) { busy, number in busy ? -number : number }.asObservable()
            }
            #expect(res.events == [.next(211, 1), .next(231, -2)])
            let tuples = scheduler.start(created: 1000, subscribed: 1100, disposed: 2000) {
                Driver.zip(loading, Driver.just(5)).map { "\($0)\($1)" }.asObservable().take(1)
            }
            #expect(tuples.events == [.next(1101, "true5"), .completed(1101)])
        }
    }

    @Test func signalCombineLatestTakesSignalConvertibles() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let taps = scheduler.createHotObservable([.next(210, 1), .next(220, 2)]).asSignal(onErrorJustReturn: 0)
            let res = scheduler.start {
                Signal.combineLatest(taps, Signal.just(10)) { $0 + $1 }.asObservable()
            }
            #expect(res.events == [.next(211, 11), .next(221, 12)])
        }
    }

    @Test func combineLatestAndZipTakeAThrowingSelectorAsRxCocoaDoes() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let numbers = scheduler.createHotObservable([.next(210, 1), .next(220, -1)]).asDriver(onErrorJustReturn: 0)
            // RxCocoa declares the selector `throws`: code that checks its input compiles as it is.
            let checked: (Int, Int) throws -> Int = { number, offset in
                guard number >= 0 else { throw testError }
                return number + offset
            }
            let latest = scheduler.start { Driver.combineLatest(numbers, Driver.just(10), resultSelector: checked).asObservable() }
            #expect(latest.events == [.next(211, 11), .error(221, testError)])
            let zipped = scheduler.start(created: 1000, subscribed: 1100, disposed: 2000) {
                Driver.zip(Driver.just(-1), Driver.just(10), resultSelector: checked).asObservable()
            }
            #expect(zipped.events == [.error(1101, testError)])
        }
    }
}
