import Dispatch
import Foundation
import Streams
import TestSupport
import Testing

/// `MainScheduler` is a `SerialDispatchQueueScheduler`, as in RxSwift, and still behaves as the
/// main scheduler through a reference of that type.
@Suite(.resourceCheck) struct MainSchedulerShapeTests {
    @Test func aSerialDispatchQueueSchedulerPropertyHoldsTheMainScheduler() {
        let scheduler: SerialDispatchQueueScheduler = MainScheduler.instance
        #expect(scheduler === MainScheduler.instance)
        let async: SerialDispatchQueueScheduler = MainScheduler.asyncInstance
        #expect(async is MainScheduler)
    }

    @Test func workScheduledThroughTheBaseTypeWaitsForTheDrain() {
        let scheduler: SerialDispatchQueueScheduler = MainScheduler.instance
        var log: [String] = []
        DispatchQueue(label: "background").sync {
            _ = scheduler.schedule(()) { _ in
                log.append("outer")
                MainScheduler.ensureExecutingOnScheduler()
                return Disposables.create()
            }
        }
        #expect(log.isEmpty)
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            // Inside the drain, nothing queued before: the main scheduler runs work at once.
            _ = scheduler.schedule(()) { _ in
                log.append("inline")
                return Disposables.create()
            }
            log.append("after inline")
            return Disposables.create()
        }
        MainScheduler.drain()
        // "inline" comes before "after inline" unless a test running alongside queued main
        // work meanwhile; both run in this drain either way.
        #expect(log.first == "outer")
        #expect(Set(log) == ["outer", "inline", "after inline"])
    }

    @Test func periodicWorkRunsInDrainsNotOnTheMainDispatchQueue() {
        let scheduler: SerialDispatchQueueScheduler = MainScheduler.instance
        let ticks = AtomicCounter()
        var onMain: [Bool] = []
        let subscription = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) { state in
            onMain.append(MainScheduler.isOnMainScheduler)
            ticks.increment()
            return state + 1
        }
        let ran = MainScheduler.run(until: { ticks.value >= 3 }, timeout: 10)
        subscription.dispose()
        #expect(ran)
        #expect(onMain.allSatisfy { $0 })
        MainScheduler.drain()
    }

    @Test func observeOnTheBaseTypedMainSchedulerDeliversInTheDrain() {
        let scheduler: SerialDispatchQueueScheduler = MainScheduler.instance
        var received: [Int] = []
        let bag = DisposeBag()
        DispatchQueue(label: "background").sync {
            Observable.of(1, 2, 3).observe(on: scheduler)
                .subscribe(onNext: { received.append($0) })
                .disposed(by: bag)
        }
        #expect(received.isEmpty)
        MainScheduler.drain()
        #expect(received == [1, 2, 3])
    }
}
