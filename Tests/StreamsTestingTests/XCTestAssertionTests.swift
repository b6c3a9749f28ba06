#if canImport(XCTest)
import Streams
import StreamsTesting
import TestSupport
import XCTest

/// RxTest's XCTest assertions, as an XCTest suite written for RxSwift would call them.
final class XCTestAssertionTests: XCTestCase {
    func testSingleOutcomesCompareElementsAndErrors() {
        let recorded: [SingleEvent<Int>] = [.success(1), .failure(TestError.boom)]
        XCTAssertEqual(recorded, [.success(1), .failure(TestError.boom)])
    }

    func testRecordedElementsIgnoreTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b")])
        let res = scheduler.start { xs.asObservable() }
        XCTAssertRecordedElements(res.events, ["a", "b"])
    }

    func testEventListsUseXCTestsOwnAssertion() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .completed(200)])
    }
}
#endif
