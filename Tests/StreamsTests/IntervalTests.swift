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
