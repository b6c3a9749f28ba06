import Foundation
import Streams
import StreamsBlocking
import TestSupport
import Testing

/// RxBlocking's operators, as RxSwift test suites use them.
@Suite(.resourceCheck) struct BlockingObservableTests {
    @Test func toArrayWaitsForCompletion() throws {
        #expect(try Observable.of(1, 2, 3).toBlocking().toArray() == [1, 2, 3])
        let background = Observable.of(1, 2, 3).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
        #expect(try background.toBlocking(timeout: 5).toArray() == [1, 2, 3])
        #expect(try Observable<Int>.empty().toBlocking().toArray() == [])
    }

    @Test func firstStopsAtTheFirstElementAndDisposes() throws {
        let subject = BehaviorSubject(value: 10)
        #expect(try subject.toBlocking().first() == 10)
        #expect(!subject.hasObservers)
        #expect(try Observable<Int>.empty().toBlocking().first() == nil)
        // An endless sequence: first() returns without waiting for an end that never comes.
        #expect(try Observable<Int>.interval(.milliseconds(1), scheduler: ConcurrentDispatchQueueScheduler(qos: .default)).toBlocking(timeout: 5).first() == 0)
    }

    @Test func lastWaitsForCompletion() throws {
        #expect(try Observable.of(1, 2, 3).toBlocking().last() == 3)
        #expect(try Observable<Int>.empty().toBlocking().last() == nil)
    }

    @Test func singleDemandsExactlyOne() throws {
        #expect(try Observable.just(5).toBlocking().single() == 5)
        #expect(throws: RxError.noElements) { try Observable<Int>.empty().toBlocking().single() }
        #expect(throws: RxError.moreThanOneElement) { try Observable.of(1, 2).toBlocking().single() }
        #expect(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 } == 2)
        #expect(throws: RxError.noElements) { try Observable.of(1, 3).toBlocking().single { $0 == 2 } }
        #expect(throws: RxError.moreThanOneElement) { try Observable.of(2, 2).toBlocking().single { $0 == 2 } }
        #expect(throws: TestError.boom) { try Observable.of(1).toBlocking().single { _ in throw TestError.boom } }
        #expect(try Single.just("s").toBlocking().single() == "s")
    }

    @Test func errorsAreThrown() {
        let failing = Observable.of(1, 2).concat(Observable<Int>.error(TestError.boom))
        #expect(throws: TestError.boom) { try failing.toBlocking().toArray() }
        #expect(throws: TestError.boom) { try failing.toBlocking().last() }
        #expect(throws: Never.self) { try failing.toBlocking().first() }   // 1 comes before the error
    }

    @Test func materializeReportsTheWholeOutcome() {
        guard case .completed(let elements) = Observable.of(1, 2).toBlocking().materialize() else {
            Issue.record("not completed")
            return
        }
        #expect(elements == [1, 2])
        let failing = Observable.of(1).concat(Observable<Int>.error(TestError.code(7)))
        guard case .failed(let before, let error) = failing.toBlocking().materialize() else {
            Issue.record("not failed")
            return
        }
        #expect(before == [1])
        #expect(error as? TestError == .code(7))
    }

    @Test func aTimeoutThrowsAndDisposes() {
        let subject = PublishSubject<Int>()
        let started = Date()
        #expect(throws: RxError.timeout) { try subject.toBlocking(timeout: 0.05).toArray() }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!subject.hasObservers)
        guard case .failed(let elements, let error) = Observable<Int>.never().startWith(1).toBlocking(timeout: 0.05).materialize() else {
            Issue.record("a timeout is a failure")
            return
        }
        #expect(elements == [1])
        #expect(error as? RxError == .timeout)
    }

    @Test func mainSchedulerWorkRunsWhileADrainingThreadWaits() throws {
        // This test's thread becomes the main scheduler while it drains; a blocking wait there
        // must keep running main-scheduler work instead of waiting for itself.
        var result: [Int] = []
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            result = (try? Observable.of(1, 2).observe(on: MainScheduler.asyncInstance).toBlocking(timeout: 5).toArray()) ?? [-1]
            return Disposables.create()
        }
        MainScheduler.drain()
        #expect(result == [1, 2])
    }
}

#if canImport(XCTest)
import XCTest

/// XCTest runs its tests on the main thread: a blocking wait there must let main-scheduler
/// work run, as RxBlocking's run loop does.
final class BlockingOnTheMainThreadTests: XCTestCase {
    func testWaitingOnTheMainThreadRunsMainSchedulerWork() throws {
        XCTAssertTrue(Thread.isMainThread)
        let values = try Observable.of(1, 2, 3)
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .observe(on: MainScheduler.instance)
            .toBlocking(timeout: 5)
            .toArray()
        XCTAssertEqual(values, [1, 2, 3])
    }
}
#endif
