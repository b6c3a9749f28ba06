import Foundation
import Streams

private let programmingErrorHookLock = NSLock()

/// Runs `body` with ``Hooks/programmingErrorHandler`` collecting the reports instead of stopping
/// the test process, and returns them. The hook is process-wide, so these runs take turns.
func recordingProgrammingErrors(_ body: () -> Void) -> [String] {
    programmingErrorHookLock.lock()
    defer { programmingErrorHookLock.unlock() }
    let reports = LockedList<String>()
    let previous = Hooks.programmingErrorHandler
    Hooks.programmingErrorHandler = { message, _, _ in reports.append(message) }
    defer { Hooks.programmingErrorHandler = previous }
    body()
    return reports.values
}
