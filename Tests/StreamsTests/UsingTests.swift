import Streams
import StreamsTesting
import TestSupport
import Testing

private final class Resource: Disposable {
    private(set) var disposeCount = 0
    private(set) var disposedAt: Int?
    let scheduler: TestScheduler

    init(scheduler: TestScheduler) { self.scheduler = scheduler }

    func dispose() {
        disposeCount += 1
        disposedAt = scheduler.clock
    }
}

@Suite(.resourceCheck) struct UsingTests {
    @Test func disposesTheResourceWhenTheSequenceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        var resource: Resource?
        var xs: TestableObservable<Int>?
        let res = scheduler.start {
            Observable.using({ () -> Resource in
                let made = Resource(scheduler: scheduler)
                resource = made
                return made
            }, observableFactory: { _ in
                let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
                xs = source
                return source.asObservable()
            })
        }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs?.subscriptions == [Subscription(200, 230)])
        #expect(resource?.disposeCount == 1)
        #expect(resource?.disposedAt == 230)
    }

    @Test func disposesTheResourceOnErrorAndOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        var failing: Resource?
        let failed = scheduler.start {
            Observable.using({ () -> Resource in
                let made = Resource(scheduler: scheduler)
                failing = made
                return made
            }, observableFactory: { _ in
                scheduler.createColdObservable([.next(10, 1), .error(20, testError)]).asObservable()
            })
        }
        #expect(failed.events == [.next(210, 1), .error(220, testError)])
        #expect(failing?.disposedAt == 220)

        let later = TestScheduler(initialClock: 0)
        var disposed: Resource?
        let cut = later.start(disposed: 215) {
            Observable.using({ () -> Resource in
                let made = Resource(scheduler: later)
                disposed = made
                return made
            }, observableFactory: { _ in
                later.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)]).asObservable()
            })
        }
        #expect(cut.events == [.next(210, 1)])
        #expect(disposed?.disposedAt == 215)
        #expect(disposed?.disposeCount == 1)
    }

    @Test func throwingFactoriesSendTheirError() {
        let scheduler = TestScheduler(initialClock: 0)
        let noResource = scheduler.start {
            Observable<Int>.using({ () throws -> Resource in throw testError }, observableFactory: { _ in .just(1) })
        }
        #expect(noResource.events == [.error(200, testError)])

        let second = TestScheduler(initialClock: 0)
        var resource: Resource?
        let noSequence = second.start {
            Observable<Int>.using({ () -> Resource in
                let made = Resource(scheduler: second)
                resource = made
                return made
            }, observableFactory: { _ in throw TestError.code(2) })
        }
        #expect(noSequence.events == [.error(200, TestError.code(2))])
        #expect(resource?.disposedAt == 200)
        #expect(resource?.disposeCount == 1)
    }
}
