import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct WindowTests {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
            .next(350, 6), .next(370, 7), .next(420, 8), .next(470, 9), end,
        ])
    }

    /// Labels each element with the index of its window, merged into one sequence.
    private func labelled(_ windows: Observable<Observable<Int>>) -> Observable<String> {
        var index = -1
        return windows.map { window -> Observable<String> in
            index += 1
            let current = index
            return window.map { "\(current) \($0)" }
        }.merge()
    }

    @Test func opensWindowsOnCountOrTimeSpan() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(600))
        let res = scheduler.start { self.labelled(xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)) }
        #expect(res.events == [
            .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"), .next(320, "2 5"),
            .next(350, "2 6"), .next(370, "2 7"), .next(420, "3 8"), .next(470, "4 9"), .completed(600),
        ])
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test func countsTheWindowsOpened() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(600))
        let res = scheduler.start { xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).map { _ in 1 } }
        // Windows open at 200 (subscription), 240 (count), 310, 370 (count), 440, 510, 580.
        #expect(res.events.map(\.time) == [200, 240, 310, 370, 440, 510, 580, 600])
    }

    @Test func errorFailsTheWindowAndTheOuterSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(600, testError))
        let res = scheduler.start { self.labelled(xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)) }
        #expect(res.events.last == .error(600, testError))
        #expect(res.events.count == 10)
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test func disposalEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(600))
        let res = scheduler.start(disposed: 370) { self.labelled(xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)) }
        #expect(res.events == [
            .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"), .next(320, "2 5"),
            .next(350, "2 6"), .next(370, "2 7"),
        ])
        #expect(xs.subscriptions == [Subscription(200, 370)])
    }
}
