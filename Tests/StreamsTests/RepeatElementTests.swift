import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct RepeatElementTests {
    @Test func repeatsUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 204) { Observable.repeatElement(7, scheduler: scheduler) }
        #expect(res.events == [.next(201, 7), .next(202, 7), .next(203, 7)])
    }

    @Test func takeEndsAnEndlessSynchronousRepetition() {
        var values: [String] = []
        var completed = false
        _ = Observable.repeatElement("a").take(50_000).subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        #expect(values.count == 50_000)
        #expect(values.allSatisfy { $0 == "a" })
        #expect(completed)
    }
}
