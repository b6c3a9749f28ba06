import Foundation
import Locking
import Observation
import Streams

/// Stands for a SwiftUI view in tests: runs `body` inside `withObservationTracking`, as SwiftUI
/// runs a view's `body`, and counts the invalidations that follow (each one is what makes
/// SwiftUI run the body again). ``render()`` runs the body again after an invalidation, as
/// SwiftUI does before the next frame, so one invalidation is counted per change between two
/// frames.
@MainActor
final class BodyReader<Output> {
    private let body: @MainActor () -> Output
    private let record = Locked(Record())
    private var last: Output?
    /// What the body returned the last time it ran.
    var output: Output { last! }

    private struct Record {
        var invalidations = 0
        var offMainActor = 0
        var pending = false
    }

    init(_ body: @escaping @MainActor () -> Output) {
        self.body = body
        last = track()
    }

    /// How many times the body was invalidated.
    var invalidations: Int { record.withLock { $0.invalidations } }
    /// How many of those invalidations came off the main actor (SwiftUI forbids them).
    var offMainActor: Int { record.withLock { $0.offMainActor } }

    /// Runs the body again if it was invalidated since it last ran.
    @discardableResult
    func render() -> Output {
        let pending = record.withLock { record -> Bool in
            defer { record.pending = false }
            return record.pending
        }
        if pending { last = track() }
        return output
    }

    private func track() -> Output {
        let record = self.record
        return withObservationTracking(body) {
            let onMainActor = MainScheduler.isOnMainActor
            record.withLock { record in
                record.invalidations += 1
                if !onMainActor { record.offMainActor += 1 }
                record.pending = true
            }
        }
    }
}

/// Runs `work` on another thread and returns when it is done.
func onAnotherThread(_ work: @escaping @Sendable () throws -> Void) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
        Thread.detachNewThread {
            do {
                try work()
                continuation.resume()
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
