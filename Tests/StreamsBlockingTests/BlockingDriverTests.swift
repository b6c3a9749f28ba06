import Foundation
import Streams
import StreamsBlocking
import StreamsTesting
import TestSupport
import Testing

/// The smallest view model with the outputs an app's has: a `Driver` and a `Signal`.
struct RowsViewModel {
    let rows: Driver<[String]>
    let saved: Signal<String>

    init(items: Observable<[String]>, saves: Observable<String>) {
        rows = items.asDriver(onErrorJustReturn: [])
        saved = saves.asSignal(onErrorJustReturn: "")
    }
}

/// `toBlocking()` on a `Driver` or a `Signal` (which deliver on `MainScheduler`) from a test's own
/// thread: a Swift Testing test runs on a pool thread, where nothing else drains the main scheduler.
@Suite(.resourceCheck) struct BlockingDriverTests {
    @Test func aDriverIsReadFromATestThread() throws {
        let vm = RowsViewModel(items: .just(["a", "b"]), saves: .never())
        #expect(try vm.rows.asObservable().take(1).toBlocking(timeout: 2).first() == ["a", "b"])
    }

    @Test func aSignalIsReadFromATestThread() throws {
        let vm = RowsViewModel(items: .never(), saves: .just("saved"))
        #expect(try vm.saved.asObservable().take(1).toBlocking(timeout: 2).first() == "saved")
    }

    @Test func whereTheMainDispatchQueueShouldDrainTheWaitStillStepsIn() throws {
        // Apple platforms' setting: queued work asks the main dispatch queue to drain, and the
        // waiting thread leaves it that queue's turn first. Here nothing services that queue
        // (or the main thread does): either way the driver's element arrives.
        let previous = MainScheduler.drainsOnMainDispatchQueue
        MainScheduler.drainsOnMainDispatchQueue = true
        defer { MainScheduler.drainsOnMainDispatchQueue = previous }
        let vm = RowsViewModel(items: .just(["a"]), saves: .never())
        #expect(try vm.rows.asObservable().take(1).toBlocking(timeout: 2).first() == ["a"])
    }

    @Test func everyOperatorReadsADriver() throws {
        let numbers = Observable.of(1, 2, 3).asDriver(onErrorJustReturn: -1).asObservable()
        #expect(try numbers.toBlocking(timeout: 2).toArray() == [1, 2, 3])
        #expect(try numbers.toBlocking(timeout: 2).last() == 3)
        #expect(try numbers.toBlocking(timeout: 2).single { $0 == 2 } == 2)
        guard case .completed(let elements) = numbers.toBlocking(timeout: 2).materialize() else {
            Issue.record("a driver of a finite source completes")
            return
        }
        #expect(elements == [1, 2, 3])
    }

    @Test func twoThreadsBlockOnDriversAtOnceAndMainWorkStaysSerial() throws {
        // Two waits at once: each thread may drain the main scheduler, never both together.
        let executing = Guarded((now: 0, most: 0))
        @Sendable func guarded(_ values: Observable<Int>) -> Observable<Int> {
            values.asDriver(onErrorJustReturn: -1).asObservable().do(onNext: { _ in
                executing.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                Thread.sleep(forTimeInterval: 0.0005)   // widen the window two drainers would share
                executing.withLock { $0.now -= 1 }
            })
        }
        let results = Guarded<[Int: [Int]]>([:])
        let group = DispatchGroup()
        for thread in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                let values = (try? guarded(Observable.range(start: thread * 100, count: 50)).toBlocking(timeout: 10).toArray()) ?? []
                results.withLock { $0[thread] = values }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 20) == .success)
        results.withLock { results in
            #expect(results[0] == Array(0..<50))
            #expect(results[1] == Array(100..<150))
        }
        #expect(executing.withLock { $0.most } == 1)
    }

    @Test func aDriverOnATestSchedulerIsLeftToTheTestScheduler() throws {
        // SharingScheduler.mock points the driver at virtual time: the blocking wait neither
        // advances it nor runs its work, so it times out, saying nothing was queued on main.
        let scheduler = TestScheduler(initialClock: 0)
        var rows: Driver<[String]>?
        SharingScheduler.mock(scheduler: scheduler) {
            rows = RowsViewModel(items: .just(["a"]), saves: .never()).rows
        }
        let driver = try #require(rows)
        let reports = recordingTimeouts {
            #expect(throws: RxError.timeout) { try driver.asObservable().take(1).toBlocking(timeout: 0.1).first() }
        }
        #expect(scheduler.clock == 0)
        #expect(reports.map(\.pendingMainSchedulerActions) == [0])
        // The test scheduler still delivers as it always did.
        let observer = scheduler.start { driver.asObservable() }
        #expect(observer.events == [.next(201, ["a"]), .completed(202)])
    }

    @Test func aTimeoutReportsTheMainSchedulerWorkStillQueued() throws {
        // Another thread holds the main scheduler (one of its actions blocks), so the driver's
        // delivery waits in the queue, and the report says so.
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            entered.signal()
            release.wait()
            return Disposables.create()
        }
        let drained = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            MainScheduler.drain()
            drained.signal()
        }
        entered.wait()
        let vm = RowsViewModel(items: .just(["a", "b"]), saves: .never())
        let reports = recordingTimeouts {
            #expect(throws: RxError.timeout) { try vm.rows.asObservable().take(1).toBlocking(timeout: 0.1).first() }
        }
        release.signal()
        drained.wait()
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(report.operation == "first()")
        #expect(report.sequence == "Observable<Array<String>>")
        #expect(report.elementsReceived == 0)
        #expect(report.pendingMainSchedulerActions >= 1)
        #expect(report.description.hasPrefix("first() on Observable<Array<String>> timed out after 0.1 s with 0 elements; "))
        #expect(report.description.contains("still queued, because another thread held the main scheduler"))
    }

    @Test func aWaitOnTheMainSchedulerNeverWaitsForItself() throws {
        // A blocking wait inside main-scheduler work, drained by a test thread: the waiting
        // thread is the main scheduler, so it keeps running the work the driver queues.
        var result: [String]?
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            let vm = RowsViewModel(items: .just(["inner"]), saves: .never())
            result = try? vm.rows.asObservable().take(1).toBlocking(timeout: 2).first()
            return Disposables.create()
        }
        let vm = RowsViewModel(items: .just(["outer"]), saves: .never())
        #expect(try vm.rows.asObservable().take(1).toBlocking(timeout: 2).first() == ["outer"])
        #expect(result == ["inner"])
    }

    /// Runs `body` with the timeout reports collected instead of printed.
    private func recordingTimeouts(_ body: () throws -> Void) rethrows -> [BlockingTimeoutReport] {
        let reports = Guarded<[BlockingTimeoutReport]>([])
        let previous = BlockingHooks.timeoutReporter
        BlockingHooks.timeoutReporter = { report in reports.withLock { $0.append(report) } }
        defer { BlockingHooks.timeoutReporter = previous }
        try body()
        return reports.withLock { $0 }
    }
}

#if canImport(XCTest)
import XCTest

/// XCTest runs its tests on the main thread.
final class BlockingDriverXCTests: XCTestCase {
    func testADriverIsReadFromTheMainThread() throws {
        let vm = RowsViewModel(items: .just(["a", "b"]), saves: .never())
        XCTAssertEqual(try vm.rows.asObservable().take(1).toBlocking(timeout: 2).first(), ["a", "b"])
    }
}
#endif

/// A value shared between threads, behind a lock.
private final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}
