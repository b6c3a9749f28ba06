import Dispatch
import Foundation
import Streams

/// A thread-safe list that tests fill from scheduler threads and read after waiting.
final class LockedList<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) { lock.lock(); storage.append(value); lock.unlock() }

    var values: [Value] { lock.lock(); defer { lock.unlock() }; return storage }

    var count: Int { lock.lock(); defer { lock.unlock() }; return storage.count }
}

/// A one-shot signal with a generous timeout, so a broken scheduler fails a test instead of
/// hanging it.
final class Signal: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func fire() { semaphore.signal() }

    /// Waits up to `seconds`; `true` if the signal fired.
    func wait(seconds: Double = 10) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }
}

/// A queue-specific marker that tells whether code runs on a given queue.
struct QueueMarker {
    let key = DispatchSpecificKey<String>()
    let name: String

    init(_ name: String) { self.name = name }

    func mark(_ queue: DispatchQueue) { queue.setSpecific(key: key, value: name) }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == name }
}
