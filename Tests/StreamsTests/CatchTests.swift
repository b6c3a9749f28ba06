import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct CatchTests {
    @Test func continuesWithTheHandlersSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .error(230, testError)])
        let ys = scheduler.createColdObservable([.next(10, 8), .completed(20)])
        var caught: [Error] = []
        let res = scheduler.start { xs.catch { error in
            caught.append(error)
            return ys.asObservable()
        } }
        #expect(res.events == [.next(210, 1), .next(240, 8), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 250)])
        #expect(caught.count == 1)
        #expect(caught.first as? TestError == testError)
    }

    @Test func handlerIsNotCalledWithoutAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        var calls = 0
        let res = scheduler.start { xs.catch { _ in
            calls += 1
            return .just(9)
        } }
        #expect(res.events == [.next(210, 1), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(calls == 0)
    }

    @Test func throwingHandlerSendsItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start { xs.catch { _ in throw TestError.code(7) } }
        #expect(res.events == [.next(210, 1), .error(230, TestError.code(7))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func replacementErrorIsPassedOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(230, testError)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, 8), .error(20, TestError.code(2))])
        let res = scheduler.start { xs.catch { _ in ys.asObservable() } }
        #expect(res.events == [.next(240, 8), .error(250, TestError.code(2))])
        #expect(ys.subscriptions == [Subscription(230, 250)])
    }

    @Test func catchAndReturnEndsWithTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start { xs.catchAndReturn(0) }
        #expect(res.events == [.next(210, 1), .next(230, 0), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposalReachesTheSourceOrTheReplacement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(500, testError)])
        let res = scheduler.start(disposed: 400) { xs.catchAndReturn(0) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 400)])

        let second = TestScheduler(initialClock: 0)
        let ys = second.createHotObservable([.error(230, testError)] as [Recorded<Event<Int>>])
        let slow = second.createColdObservable([.next(10, 8), .next(500, 9), .completed(600)])
        let cut = second.start(disposed: 400) { ys.catch { _ in slow.asObservable() } }
        #expect(cut.events == [.next(240, 8)])
        #expect(slow.subscriptions == [Subscription(230, 400)])
    }
}
