import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct PrimitiveSequenceTimeTests {
    @Test func timeoutFailsALateSingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(20), scheduler: scheduler).asObservable() }
        #expect(res.events == [.error(220, StreamsError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func timeoutKeepsAnEarlySingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(20), scheduler: scheduler).asObservable() }
        #expect(res.events == [.next(210, 1), .completed(210)])
    }

    @Test func timeoutSwitchesToTheFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Maybe<Int>.never().timeout(.seconds(20), other: .just(0), scheduler: scheduler).asObservable() }
        #expect(res.events == [.next(220, 0), .completed(220)])
    }

    @Test func delayAndDelaySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let delayed = scheduler.start { Single.just(1).delay(.seconds(5), scheduler: scheduler).asObservable() }
        #expect(delayed.events == [.next(205, 1), .completed(206)])
        let maybeScheduler = TestScheduler(initialClock: 0)
        let maybe = maybeScheduler.start { Maybe.just("m").delay(.seconds(5), scheduler: maybeScheduler) }
        #expect(maybe.events == [.next(205, "m"), .completed(206)])
        let observedScheduler = TestScheduler(initialClock: 0)
        let observed = observedScheduler.start { Maybe.just("m").observe(on: observedScheduler) }
        #expect(observed.events == [.next(201, "m"), .completed(202)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let xs = scheduler2.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
        let res = scheduler2.start { xs.asCompletable().delaySubscription(.seconds(30), scheduler: scheduler2).asObservable() }
        #expect(res.events == [.completed(240)])
        #expect(xs.subscriptions == [Subscription(230, 240)])
    }

    @Test func driverDebounceThrottleAndDelayUseTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(212, 2), .next(240, 3), .completed(300)])
            let debounced = scheduler.start { xs.asDriver(onErrorJustReturn: 0).debounce(.seconds(5)).asObservable() }
            #expect(debounced.events.compactMap { $0.value.element } == [2, 3])
            #expect(debounced.events.last?.value.isCompleted == true)
            #expect(debounced.events.first.map { $0.time > 213 } == true)
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            let xs = scheduler2.createHotObservable([.next(210, 1), .next(212, 2), .next(240, 3), .completed(300)])
            let throttled = scheduler2.start { xs.asDriver(onErrorJustReturn: 0).throttle(.seconds(10), latest: false).asObservable() }
            #expect(throttled.events.compactMap { $0.value.element } == [1, 3])
        }
        let scheduler3 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler3) {
            let delayed = scheduler3.start { Driver.just(1).delay(.seconds(5)).asObservable() }
            #expect(delayed.events.first == .next(206, 1))
        }
    }
}
