import Foundation
import Streams
import Synchronization

/// What a blocking wait had seen when its timeout passed: which operator waited, on what, how
/// many elements had come, and how much main-scheduler work was still queued.
///
/// The operator still throws `RxError.timeout`, as RxBlocking's does (so `catch RxError.timeout`
/// and `#expect(throws: RxError.timeout)` keep working); the report goes to
/// ``BlockingHooks/timeoutReporter``, which writes it to standard error by default:
///
///     StreamsBlocking: first() on Observable<Int> timed out after 0.05 s with 0 elements;
///     0 main-scheduler actions still queued, so what the sequence waits for is not
///     main-scheduler work: …
public struct BlockingTimeoutReport: Sendable, CustomStringConvertible {
    /// The operator that waited, e.g. `"first()"` or `"toArray()"`.
    public let operation: String
    /// The timeout given to `toBlocking(timeout:)`, in seconds.
    public let timeout: TimeInterval
    /// The sequence waited on, as its type: `"Observable<Int>"`.
    public let sequence: String
    /// How many elements had arrived (for `single(_:)`, how many matched).
    public let elementsReceived: Int
    /// How many main-scheduler actions were queued and not yet run when the wait gave up.
    public let pendingMainSchedulerActions: Int

    /// One paragraph saying what timed out and where to look.
    public var description: String {
        let elements = elementsReceived == 1 ? "1 element" : "\(elementsReceived) elements"
        let actions = pendingMainSchedulerActions == 1 ? "1 main-scheduler action" : "\(pendingMainSchedulerActions) main-scheduler actions"
        let why = pendingMainSchedulerActions == 0
            ? "so what the sequence waits for is not main-scheduler work: a TestScheduler nobody advances (a Driver or Signal made inside SharingScheduler.mock), a subject that never sends, or work on another scheduler slower than the timeout"
            : "because another thread held the main scheduler (a main-scheduler action that blocks, or a thread that drains and never returns)"
        return "\(operation) on \(sequence) timed out after \(Self.seconds(timeout)) s with \(elements); \(actions) still queued, \(why)"
    }

    private static func seconds(_ value: TimeInterval) -> String {
        let rounded = (value * 1_000).rounded() / 1_000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// Where StreamsBlocking reports what it saw when a wait times out.
public enum BlockingHooks {
    /// Receives a ``BlockingTimeoutReport`` each time a `toBlocking(timeout:)` operator gives up,
    /// just before it throws `RxError.timeout`. The default writes the report to standard error,
    /// so a failing test's output says what was still queued. Set it to `{ _ in }` to stay
    /// quiet; tests replace it to read the report, and put the previous one back after.
    public static var timeoutReporter: @Sendable (BlockingTimeoutReport) -> Void {
        get { reporter.withLock { $0 } }
        set { reporter.withLock { $0 = newValue } }
    }

    /// The default ``timeoutReporter``: one line on standard error.
    public static let defaultTimeoutReporter: @Sendable (BlockingTimeoutReport) -> Void = { report in
        FileHandle.standardError.write(Data("StreamsBlocking: \(report)\n".utf8))
    }

    private static let reporter = Mutex<@Sendable (BlockingTimeoutReport) -> Void>(defaultTimeoutReporter)
}
