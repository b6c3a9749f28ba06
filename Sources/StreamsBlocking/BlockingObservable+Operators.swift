import Foundation
import Streams

extension BlockingObservable {
    /// Every element, once the sequence completes.
    ///
    ///     --1--2--3--|   toArray()   [1, 2, 3]
    ///
    /// - Returns: The elements in order.
    /// - Throws: The sequence's error, or `RxError.timeout`.
    public func toArray() throws -> [Element] {
        try elementsOrThrow(wait("toArray()"))
    }

    /// The first element (`nil` when the sequence completes empty); the subscription is
    /// disposed as soon as it arrives.
    ///
    ///     --1--2--3--|   first()   1
    ///
    /// - Returns: The first element, or `nil`.
    /// - Throws: The sequence's error (if it comes first), or `RxError.timeout`.
    public func first() throws -> Element? {
        try elementsOrThrow(wait("first()", upTo: 1)).first
    }

    /// The last element, once the sequence completes (`nil` when it completes empty).
    ///
    ///     --1--2--3--|   last()   3
    ///
    /// - Returns: The last element, or `nil`.
    /// - Throws: The sequence's error, or `RxError.timeout`.
    public func last() throws -> Element? {
        try elementsOrThrow(wait("last()")).last
    }

    /// The only element of a sequence that completes with exactly one.
    ///
    ///     --1--|   single()   1
    ///
    /// - Returns: The element.
    /// - Throws: `RxError.noElements` when it completes empty, `RxError.moreThanOneElement` as
    ///   soon as a second element arrives, the sequence's error, or `RxError.timeout`.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The only element that matches `predicate`, in a sequence that completes.
    ///
    ///     --1--2--3--|   single { $0 == 2 }   2
    ///
    /// - Parameter predicate: Picks the element; an error it throws fails the wait.
    /// - Returns: The matching element.
    /// - Throws: `RxError.noElements` when none matches, `RxError.moreThanOneElement` as soon as
    ///   a second one does, the predicate's or the sequence's error, or `RxError.timeout`.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let matching = try elementsOrThrow(wait("single()", upTo: 2, where: predicate))
        if matching.count > 1 { throw RxError.moreThanOneElement }
        guard let element = matching.first else { throw RxError.noElements }
        return element
    }

    /// The whole outcome without throwing: the elements and how the sequence ended.
    ///
    ///     --1--2--|   materialize()   .completed(elements: [1, 2])
    ///     --1--x      materialize()   .failed(elements: [1], error: x)
    ///
    /// - Returns: `.completed(elements:)`, or `.failed(elements:error:)` with the elements that
    ///   came before the error (`RxError.timeout` when the wait timed out).
    public func materialize() -> MaterializedSequenceResult<Element> {
        wait("materialize()")
    }

    private func elementsOrThrow(_ result: MaterializedSequenceResult<Element>) throws -> [Element] {
        switch result {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }

    /// Subscribes and waits until the sequence ends, `limit` matching elements arrived, or the
    /// timeout passed.
    private func wait(_ operation: String, upTo limit: Int? = nil, where predicate: @escaping (Element) throws -> Bool = { _ in true }) -> MaterializedSequenceResult<Element> {
        let state = WaitState<Element>()
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(source.subscribe { event in
            guard state.isWaiting else { return }
            switch event {
            case .next(let element):
                do {
                    if try predicate(element) {
                        let count = state.append(element)
                        if let limit, count >= limit { state.finish(nil) }
                    }
                } catch {
                    state.finish(error)
                }
            case .error(let error):
                state.finish(error)
            case .completed:
                state.finish(nil)
            }
        })
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        let finished = state.waitUntilFinished(deadline: deadline)
        let pending = finished ? 0 : MainScheduler.pendingCount
        subscription.dispose()
        // The sequence may still have ended between the deadline and here: then it wins.
        if !finished, let timeout, state.finish(RxError.timeout) {
            BlockingHooks.timeoutReporter(BlockingTimeoutReport(
                operation: operation, timeout: timeout, sequence: "Observable<\(Element.self)>",
                elementsReceived: state.outcome.0.count, pendingMainSchedulerActions: pending))
        }
        let (elements, error) = state.outcome
        if let error { return .failed(elements: elements, error: error) }
        return .completed(elements: elements)
    }
}

/// What one wait has seen, shared with the thread that delivers the events.
private final class WaitState<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var error: Swift.Error?
    private var done = false

    var isWaiting: Bool {
        condition.lock(); defer { condition.unlock() }
        return !done
    }

    var outcome: ([Element], Swift.Error?) {
        condition.lock(); defer { condition.unlock() }
        return (elements, error)
    }

    /// Adds an element; returns how many there are.
    func append(_ element: Element) -> Int {
        condition.lock(); defer { condition.unlock() }
        elements.append(element)
        return elements.count
    }

    /// Ends the wait (the first call wins); returns whether this call ended it.
    @discardableResult
    func finish(_ error: Swift.Error?) -> Bool {
        condition.lock(); defer { condition.unlock() }
        guard !done else { return false }
        done = true
        self.error = error
        condition.broadcast()
        return true
    }

    /// Waits for ``finish(_:)``; `false` when the deadline passed first.
    ///
    /// On the main thread (or a thread draining `MainScheduler`) it keeps main-scheduler work and
    /// the run loop going. On any other thread it runs main-scheduler work itself whenever
    /// nothing else does (see ``BlockingObservable``), so a `Driver` read from a Swift Testing
    /// test's thread still delivers.
    func waitUntilFinished(deadline: Date?) -> Bool {
        var watch = MainScheduler.UnattendedWatch()
        // Where the main dispatch queue drains the main scheduler, it gets this long to do so
        // before the waiting thread steps in (the main thread may be busy, or blocked); while a
        // test holds the scheduler that queue does not drain it, and the wait steps in at once.
        let grace: TimeInterval = MainScheduler.drainsOnMainDispatchQueue && !MainScheduler.automaticDrainsHeld ? 0.1 : 0
        while true {
            condition.lock()
            if done { condition.unlock(); return true }
            if let deadline, Date() >= deadline { condition.unlock(); return false }
            condition.unlock()
            if MainScheduler.isOnMainScheduler {
                // This thread is the one that runs main-scheduler work: run it while waiting.
                MainScheduler.drain()
                if Thread.isMainThread {
                    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.001))
                }
            } else {
                MainScheduler.drainUnattended(&watch, grace: grace, until: { self.isFinished })
            }
            condition.lock()
            if !done {
                // Short steps: main-scheduler work queued meanwhile wakes nobody here.
                let step = Date().addingTimeInterval(0.002)
                _ = condition.wait(until: deadline.map { min($0, step) } ?? step)
            }
            condition.unlock()
        }
    }

    private var isFinished: Bool {
        condition.lock(); defer { condition.unlock() }
        return done
    }
}
