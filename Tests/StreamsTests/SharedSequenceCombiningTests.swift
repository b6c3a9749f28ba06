import Streams
import StreamsTesting
import TestSupport
import Testing

/// RxCocoa's Driver and Signal operators beyond the diagrams of OperatorDiagramTests.
@Suite(.resourceCheck) struct SharedSequenceCombiningTests {
    @Test func concatOfASequenceAndZipOfACollection() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let concatenated = scheduler.start { Driver.concat(AnySequence([Driver.of(1, 2), Driver.just(3)])).asObservable() }
            #expect(concatenated.events.map(\.value) == [.next(1), .next(2), .next(3), .completed])
        }
        let later = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: later) {
            let a = later.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let b = later.createHotObservable([.next(220, 10), .next(240, 20), .completed(300)])
            let zipped = later.start {
                Driver.zip([a.asDriver(onErrorJustReturn: 0), b.asDriver(onErrorJustReturn: 0)]) { $0.reduce(0, +) }.asObservable()
            }
            #expect(zipped.events.map(\.value) == [.next(11), .next(22), .completed])
        }
        let third = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: third) {
            let arrays = third.createHotObservable([.next(410, 1), .completed(420)])
            let more = third.createHotObservable([.next(415, 5), .completed(420)])
            var pairs: [[Int]] = []
            let subscription = Driver<[Int]>.zip([arrays.asDriver(onErrorJustReturn: 0), more.asDriver(onErrorJustReturn: 0)]).drive(onNext: { pairs.append($0) })
            third.advanceTo(500)
            #expect(pairs == [[1, 5]])
            subscription.dispose()
        }
    }

    @Test func intervalAndTimerCountOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let ticks = scheduler.start(disposed: 235) { Driver<Int>.interval(.seconds(10)).asObservable() }
            #expect(ticks.events.map(\.value) == [.next(0), .next(1), .next(2)])
            let timer = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: timer) {
                let once = timer.start { Signal<Int>.timer(.seconds(20), period: nil).asObservable() }
                #expect(once.events.map(\.value) == [.next(0), .completed])
                #expect(once.events.first.map { $0.time >= 220 } == true)
            }
        }
    }

    @Test func mergeWithAConcurrencyLimitWaitsItsTurn() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let first = scheduler.createColdObservable([.next(10, 1), .completed(30)])
            let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
            let res = scheduler.start {
                Driver.of(first.asDriver(onErrorJustReturn: 0), second.asDriver(onErrorJustReturn: 0)).merge(maxConcurrent: 1).asObservable()
            }
            #expect(res.events.map(\.value) == [.next(1), .next(2), .completed])
            // The second inner waits for the first to complete before it is subscribed.
            #expect(second.subscriptions.first.map { $0.subscribe >= first.subscriptions[0].unsubscribe } == true)
        }
    }

    @Test func asSharedSequenceWithAStrategyReplacesErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let failing = Observable<Int>.concat(.just(1), .error(testError))
            var received: [[Int]] = [[], [], []]
            _ = failing.asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorJustReturn: 0).drive(onNext: { received[0].append($0) })
            _ = failing.asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorDriveWith: Signal.just(7)).emit(onNext: { received[1].append($0) })
            _ = failing.asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorRecover: { _ in Driver.just(9) }).drive(onNext: { received[2].append($0) })
            scheduler.start()
            #expect(received == [[1, 0], [1, 7], [1, 9]])
        }
    }

    @Test func driveAndEmitWithNoClosureJustSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            var subscribed = 0
            let counted = Observable<Int>.deferred { subscribed += 1; return .just(1) }
            let driving = counted.asDriver(onErrorJustReturn: 0).drive()
            let emitting = counted.asSignal(onErrorJustReturn: 0).emit()
            scheduler.start()
            #expect(subscribed == 2)
            driving.dispose()
            emitting.dispose()
        }
    }

    @Test func debugPassesEventsThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { Driver.of(1, 2).debug("driver").asObservable() }
            #expect(res.events.map(\.value) == [.next(1), .next(2), .completed])
        }
    }

    @Test func aSideEffectOfADriverRunsOncePerElementWhateverTheNumberOfObservers() {
        // RxCocoa shares the result of every Driver operator again: two observers of `do`
        // see one run of its closure per element, not two.
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            var effects: [Int] = []
            let driver = xs.asDriver(onErrorJustReturn: -1).do(onNext: { effects.append($0) }, onCompleted: { effects.append(-1) })
            var first: [Int] = []
            var second: [Int] = []
            scheduler.scheduleAt(200) {
                _ = driver.drive(onNext: { first.append($0) })
                _ = driver.drive(onNext: { second.append($0) })
            }
            scheduler.start()
            #expect(effects == [1, 2, -1])
            #expect(first == [1, 2] && second == [1, 2])
        }
    }

    @Test func switchingToSignalsGivesASignal() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let inner = scheduler.createHotObservable([.next(220, 5), .completed(240)]).asSignal(onErrorJustReturn: 0)
            let switched: Signal<Int> = Driver.just(inner).switchLatest()
            let merged: Signal<Int> = Driver.just(inner).merge()
            let res = scheduler.start { Signal.merge(switched, merged).asObservable() }
            #expect(res.events.map(\.value) == [.next(5), .next(5), .completed])
        }
    }
}
