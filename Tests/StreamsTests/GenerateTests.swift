import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct GenerateTests {
    @Test func iteratesWhileTheConditionHolds() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 1, condition: { $0 < 20 }, scheduler: scheduler, iterate: { $0 * 3 })
        }
        #expect(res.events == [.next(201, 1), .next(202, 3), .next(203, 9), .completed(204)])
    }

    @Test func failingInitialConditionCompletesEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 100, condition: { $0 < 20 }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        #expect(res.events == [.completed(201)])
    }

    @Test func throwingConditionEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { value -> Bool in
                if value == 2 { throw testError }
                return true
            }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        #expect(res.events == [.next(201, 0), .next(202, 1), .error(203, testError)])
    }

    @Test func throwingIterateEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { value -> Int in
                if value == 1 { throw TestError.code(1) }
                return value + 1
            })
        }
        #expect(res.events == [.next(201, 0), .next(202, 1), .error(203, TestError.code(1))])
    }

    @Test func disposalStopsIteration() {
        let scheduler = TestScheduler(initialClock: 0)
        var iterations = 0
        let res = scheduler.start(disposed: 203) {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { value in
                iterations += 1
                return value + 1
            })
        }
        #expect(res.events == [.next(201, 0), .next(202, 1)])
        #expect(iterations == 1)
    }

    @Test func defaultSchedulerIsSynchronous() {
        var values: [Int] = []
        _ = Observable.generate(initialState: 0, condition: { $0 < 5 }, iterate: { $0 + 1 }).subscribe(onNext: { values.append($0) })
        #expect(values == [0, 1, 2, 3, 4])
    }
}
