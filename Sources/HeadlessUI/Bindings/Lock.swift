import Foundation

/// A small mutex for HeadlessUI's few thread-crossing paths (image loading, hooks).
final class Mutex<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
