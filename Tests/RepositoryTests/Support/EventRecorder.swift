import Foundation
import Streams

/// Records the events of a subscription made on any thread and lets a test wait for them.
final class EventRecorder<Element>: ObserverType, @unchecked Sendable {
    private let condition = NSCondition()
    private var recorded: [Event<Element>] = []
    private var threadsOnMain: [Bool] = []

    var events: [Event<Element>] {
        condition.lock(); defer { condition.unlock() }
        return recorded
    }

    /// Whether each event arrived on the main scheduler.
    var deliveredOnMainScheduler: [Bool] {
        condition.lock(); defer { condition.unlock() }
        return threadsOnMain
    }

    func on(_ event: Event<Element>) {
        let onMain = MainScheduler.isOnMainScheduler
        condition.lock()
        recorded.append(event)
        threadsOnMain.append(onMain)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until a terminal event arrives.
    ///
    /// - Returns: `true` if it arrived within `timeout` seconds.
    @discardableResult
    func waitForTermination(timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock(); defer { condition.unlock() }
        while !(recorded.last?.isStopEvent ?? false) {
            if !condition.wait(until: deadline) { return recorded.last?.isStopEvent ?? false }
        }
        return true
    }

    /// The error of the terminal event, if it was one.
    var error: Error? { events.last?.error }

    /// The elements received.
    var elements: [Element] { events.compactMap(\.element) }
}
