import Foundation
import Streams
import TestSupport
import Testing

/// A virtual clock made of dates: work runs at its date, in order, as the clock moves.
@Suite(.resourceCheck) struct HistoricalSchedulerTests {
    @Test func workRunsAtItsDateInOrder() {
        let scheduler = HistoricalScheduler()
        var ran: [(String, TimeInterval)] = []
        _ = scheduler.scheduleAbsoluteVirtual("b", time: Date(timeIntervalSince1970: 20)) { name in
            ran.append((name, scheduler.now.timeIntervalSince1970))
            return Disposables.create()
        }
        _ = scheduler.scheduleAbsoluteVirtual("a", time: Date(timeIntervalSince1970: 10)) { name in
            ran.append((name, scheduler.now.timeIntervalSince1970))
            _ = scheduler.scheduleRelativeVirtual("c", dueTime: 30) { name in
                ran.append((name, scheduler.clock.timeIntervalSince1970))
                return Disposables.create()
            }
            return Disposables.create()
        }
        scheduler.start()
        #expect(ran.map(\.0) == ["a", "b", "c"])
        #expect(ran.map(\.1) == [10, 20, 40])
    }

    @Test func timeOperatorsRunOnIt() {
        let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 1_000))
        var received: [(Int, TimeInterval)] = []
        let subscription = Observable<Int>.interval(.seconds(5), scheduler: scheduler)
            .take(3)
            .subscribe(onNext: { received.append(($0, scheduler.now.timeIntervalSince1970)) })
        scheduler.advanceTo(Date(timeIntervalSince1970: 1_012))
        #expect(received.map(\.0) == [0, 1])
        #expect(received.map(\.1) == [1_005, 1_010])
        scheduler.start()
        #expect(received.map(\.1) == [1_005, 1_010, 1_015])
        subscription.dispose()
    }
}
