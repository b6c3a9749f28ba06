import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct TimerTests {
    @Test func oneShotEmitsZeroThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(300), scheduler: scheduler) }
        #expect(res.events == [.next(500, 0), .completed(500)])
    }

    @Test func periodicStartsAfterDueTimeThenRepeats() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 600) {
            Observable<Int>.timer(.seconds(50), period: .seconds(100), scheduler: scheduler)
        }
        #expect(res.events == [.next(250, 0), .next(350, 1), .next(450, 2), .next(550, 3)])
    }

    @Test func disposedBeforeDueTimeEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 400) { Observable<Int>.timer(.seconds(300), scheduler: scheduler) }
        #expect(res.events.isEmpty)
    }

    @Test func zeroDueTimeFiresOnTheNextTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(0), scheduler: scheduler) }
        #expect(res.events == [.next(201, 0), .completed(201)])
    }
}
