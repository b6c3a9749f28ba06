import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct RangeTests {
    @Test func sendsConsecutiveIntegersOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: 5, count: 3, scheduler: scheduler) }
        #expect(res.events == [.next(201, 5), .next(202, 6), .next(203, 7), .completed(204)])
    }

    @Test func zeroCountCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.range(start: 5, count: 0, scheduler: scheduler) }
        #expect(res.events == [.completed(201)])
    }

    @Test func disposalStopsTheRange() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Observable.range(start: 0, count: 100, scheduler: scheduler) }
        #expect(res.events == [.next(201, 0)])
    }

    @Test func defaultSchedulerRunsSynchronouslyWithoutGrowingTheStack() {
        var total = 0
        var completed = false
        _ = Observable.range(start: 1, count: 100_000).subscribe(onNext: { total += $0 }, onCompleted: { completed = true })
        #expect(total == 5_000_050_000)
        #expect(completed)
    }

    @Test func worksWithOtherIntegerTypes() {
        var values: [UInt8] = []
        _ = Observable<UInt8>.range(start: 253, count: 3).subscribe(onNext: { values.append($0) })
        #expect(values == [253, 254, 255])
    }
}
