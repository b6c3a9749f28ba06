#if canImport(Testing)
import Foundation
import Streams
import Testing

/// A Swift Testing trait that proves a test leaked no subscription: it records
/// `Resources.total` before the test and expects the same value after it.
///
/// `Resources.total` is process-wide, so tests carrying this trait run one at a time (across
/// every suite and target); tests without it must not create subscriptions. The main
/// scheduler is drained before and after each test, so work one test leaves queued never runs
/// inside another, and it is held meanwhile (`MainScheduler.holdingAutomaticDrains`): neither
/// the main dispatch queue nor the main run loop drains it behind the test's back, so what the
/// test queues runs when the test drains it, on Apple platforms as on Linux. Asynchronous
/// clean-up gets up to two seconds to finish before a difference counts as a leak.
///
///     @Suite(.resourceCheck) struct MapTests { … }
public struct ResourceCheckTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite and its nested suites.
    public var isRecursive: Bool { true }

    /// Runs the test alone, then checks the resource count.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else {
            try await function()
            return
        }
        await ResourceGate.shared.acquire()
        // Main-scheduler work left queued by an earlier test runs now, not inside this one.
        MainScheduler.drain()
        let before = Resources.total
        do {
            try await MainScheduler.holdingAutomaticDrains { try await function() }
        } catch {
            await Self.settle(before)
            await ResourceGate.shared.release()
            throw error
        }
        let after = await Self.settle(before)
        await ResourceGate.shared.release()
        #expect(after == before, "Resources.total is \(after) after the test, \(before) before: a subscription leaked, or a test without .resourceCheck (in any test target of this process) held one while this test ran; every suite that subscribes needs the trait")
    }

    @discardableResult
    private static func settle(_ baseline: Int32) async -> Int32 {
        let deadline = Date().addingTimeInterval(2)
        MainScheduler.drain()
        var current = Resources.total
        while current != baseline, Date() < deadline {
            MainScheduler.drain()
            try? await Task.sleep(nanoseconds: 5_000_000)
            current = Resources.total
        }
        return current
    }
}

extension Trait where Self == ResourceCheckTrait {
    /// Checks that the test leaves `Resources.total` where it found it (and serialises such
    /// tests, since the counter is shared by the whole process).
    public static var resourceCheck: Self { ResourceCheckTrait() }
}

/// A process-wide asynchronous mutex for resource-checked tests.
actor ResourceGate {
    static let shared = ResourceGate()
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
#endif
