import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

/// Lets a fixed number of tasks wait until all of them have arrived.
private actor Rendezvous {
    private let expected: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ expected: Int) { self.expected = expected }

    func arrive() async {
        arrived += 1
        if arrived == expected {
            waiting.forEach { $0.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

@Suite(.resourceCheck) struct SharingSchedulerIsolationTests {
    /// Two tasks mock different schedulers at the same moment; each driver delivers on its own
    /// task's scheduler only.
    @Test func concurrentMocksDoNotSeeEachOther() async {
        let rendezvous = Rendezvous(2)
        let recordings = await withTaskGroup(of: (Int, [Recorded<Event<Int>>]).self) { group in
            for lane in 0..<2 {
                group.addTask {
                    let scheduler = TestScheduler(initialClock: 0)
                    var events: [Recorded<Event<Int>>] = []
                    await SharingScheduler.mock(scheduler: scheduler) {
                        await rendezvous.arrive()
                        #expect(SharingScheduler.make() as? TestScheduler === scheduler)
                        let xs = scheduler.createHotObservable([.next(210, lane), .completed(300)])
                        events = scheduler.start { xs.asDriver(onErrorJustReturn: -1).asObservable() }.events
                    }
                    return (lane, events)
                }
            }
            var byLane: [Int: [Recorded<Event<Int>>]] = [:]
            for await (lane, events) in group { byLane[lane] = events }
            return byLane
        }
        #expect(recordings[0] == [.next(211, 0), .completed(301)])
        #expect(recordings[1] == [.next(211, 1), .completed(301)])
    }

    /// A driver reads the sharing scheduler when it is built: subscribed later, outside the
    /// mock and in a task that does not inherit it, it still delivers on the mock's scheduler.
    @Test func aDriverKeepsTheSchedulerItWasBuiltWith() async {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var driver: Driver<Int>?
        SharingScheduler.mock(scheduler: scheduler) {
            driver = subject.asDriver(onErrorJustReturn: -1)
        }
        let built = Sendable2(driver!, scheduler, subject)
        let events = await Task.detached {
            #expect(SharingScheduler.make() as? MainScheduler === MainScheduler.instance)
            let observer = built.scheduler.createObserver(Int.self)
            let subscription = built.driver.drive(observer)
            built.scheduler.scheduleAt(10) { built.subject.onNext(7) }
            built.scheduler.start()
            subscription.dispose()
            return observer.events
        }.value
        #expect(events == [.next(11, 7)])
    }

    /// Mocks nest: the inner one wins inside, the outer one is back after it.
    @Test func nestedMocksRestoreTheOuterOne() {
        let outer = TestScheduler(initialClock: 0)
        let inner = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: outer) {
            SharingScheduler.mock(scheduler: inner) {
                #expect(SharingScheduler.make() as? TestScheduler === inner)
            }
            #expect(SharingScheduler.make() as? TestScheduler === outer)
        }
        #expect(SharingScheduler.make() as? MainScheduler === MainScheduler.instance)
    }
}

/// Hands the pieces of a test to a detached task.
private struct Sendable2: @unchecked Sendable {
    let driver: Driver<Int>
    let scheduler: TestScheduler
    let subject: PublishSubject<Int>

    init(_ driver: Driver<Int>, _ scheduler: TestScheduler, _ subject: PublishSubject<Int>) {
        self.driver = driver
        self.scheduler = scheduler
        self.subject = subject
    }
}

/// Two suites that run in parallel with each other (and with the rest of the run), each
/// mocking its own scheduler for many turns. They subscribe nothing, so they need no leak
/// check and are not serialised by one: with a process-wide mock one would see the other's.
enum ParallelSharingSchedulerMocks {
    static func check(turns: Int) async {
        let mine = TestScheduler(initialClock: 0)
        await SharingScheduler.mock(scheduler: mine) {
            for _ in 0..<turns {
                #expect(SharingScheduler.make() as? TestScheduler === mine)
                await Task.yield()
            }
        }
    }
}

@Suite struct ParallelMockSuiteA {
    @Test(arguments: 0..<4) func seesOnlyItsOwnMock(_ lane: Int) async {
        await ParallelSharingSchedulerMocks.check(turns: 2_000)
    }
}

@Suite struct ParallelMockSuiteB {
    @Test(arguments: 0..<4) func seesOnlyItsOwnMock(_ lane: Int) async {
        await ParallelSharingSchedulerMocks.check(turns: 2_000)
    }
}
