import Foundation

/// A value shared between a test and the threads or tasks it starts, guarded by a lock.
final class AsyncTestBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&stored) }
    }
}

/// Polls `condition` every millisecond until it holds or `timeout` seconds pass.
///
/// - Returns: `true` if the condition held in time.
func asyncWaitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}
