#if canImport(XCTest)
import Foundation
import Streams
import XCTest
import Locking

/// RxSwift-era XCTest suites run on the main thread and let main-scheduler work happen by
/// pumping the main run loop. That must work on Linux too.
final class MainSchedulerRunLoopTests: XCTestCase {
    func testPumpingTheMainRunLoopRunsQueuedWork() {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs its tests on the main thread")
        let ran = Locked(false)
        DispatchQueue.global().async {
            _ = MainScheduler.instance.schedule(()) { _ in
                ran.withLock { $0 = Thread.isMainThread }
                return Disposables.create()
            }
        }
        let deadline = Date().addingTimeInterval(5)
        while !ran.withLock({ $0 }), Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
        XCTAssertTrue(ran.withLock { $0 }, "work queued on MainScheduler ran on the main thread while the run loop was pumped")
    }

    func testObserveOnMainSchedulerDeliversWhileAnExpectationWaits() {
        let delivered = expectation(description: "delivered on the main scheduler")
        let subscription = Observable.just(7)
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { value in
                XCTAssertEqual(value, 7)
                XCTAssertTrue(MainScheduler.isOnMainScheduler)
                delivered.fulfill()
            })
        wait(for: [delivered], timeout: 5)
        subscription.dispose()
    }
}
#endif
