import Foundation
import Streams

/// The process-wide programming-error hooks are replaced by tests of several targets that run
/// in one process: they take turns through this lock.
public let programmingErrorHookLock = NSLock()

/// Runs `body` with ``Hooks/programmingErrorHandler`` collecting the reports instead of stopping
/// the test process, and returns them. The hook is process-wide, so these runs take turns.
public func recordingProgrammingErrors(_ body: () -> Void) -> [String] {
    programmingErrorHookLock.lock()
    defer { programmingErrorHookLock.unlock() }
    let reports = ReportList()
    let previous = Hooks.programmingErrorHandler
    Hooks.programmingErrorHandler = { message, _, _ in reports.append(message) }
    defer { Hooks.programmingErrorHandler = previous }
    body()
    return reports.values
}

/// Messages appended from any thread.
public final class ReportList: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    public init() {}

    public func append(_ message: String) { lock.withLock { messages.append(message) } }

    public var values: [String] { lock.withLock { messages } }
}
