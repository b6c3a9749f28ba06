import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct IntervalTests {
    @Test func countsEveryPeriodUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [
            .next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3), .next(700, 4), .next(800, 5), .next(900, 6),
        ])
    }

    @Test func disposalStopsTheTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 350) { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(300, 0)])
    }

    @Test func worksWithOtherIntegerTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 450) { Observable<UInt8>.interval(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(300, 0), .next(400, 1)])
    }
}

extension IntervalTests {
    @Test func ticksOnARealSchedulerUntilDisposed() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "interval.real")
        let values = LockedList<Int>()
        let reached = TestLatch()
        let subscription = Observable<Int>.interval(.milliseconds(1), scheduler: scheduler)
            .subscribe(onNext: { value in
                values.append(value)
                if value == 4 { reached.fire() }
            })
        #expect(reached.wait())
        subscription.dispose()
        let flushed = TestLatch()
        _ = scheduler.schedule(()) { _ in flushed.fire(); return Disposables.create() }
        #expect(flushed.wait())
        let count = values.count
        #expect(values.values == Array(0..<count))
        #expect(count >= 5)
    }
}
