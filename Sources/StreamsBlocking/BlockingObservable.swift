import Foundation
import Streams

extension ObservableConvertibleType {
    /// The sequence as a ``BlockingObservable``: its operators subscribe and wait on the
    /// calling thread for the events they need (RxBlocking's `toBlocking`).
    ///
    ///     let squares = try Observable.of(1, 2, 3).map { $0 * $0 }.toBlocking().toArray()   // [1, 4, 9]
    ///     let first = try searchResults.toBlocking(timeout: 2).first()
    ///
    /// For tests and command-line tools: blocking an app's main thread freezes its UI.
    ///
    /// - Parameter timeout: The longest wait, in seconds, after which the operator throws
    ///   `RxError.timeout` (`StreamsError.timeout`); `nil` waits as long as it takes.
    /// - Returns: The blocking view of the sequence.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(source: asObservable(), timeout: timeout)
    }
}

/// A sequence whose operators block the calling thread until they have what they need: the
/// first element, the last, all of them, the only one, or the whole outcome.
///
/// Each operator subscribes anew. While it waits on the main thread, or on a thread that is
/// draining `MainScheduler`, it keeps main-scheduler work (and the main run loop) running. On
/// any other thread (a Swift Testing test's) it runs queued main-scheduler work itself whenever
/// nothing else is running it — where the main dispatch queue drains the main scheduler (Apple
/// platforms), after leaving that queue 0.1 s — so a `Driver` or `Signal`, or any sequence
/// observed on `MainScheduler.instance`, still delivers instead of timing out. Main-scheduler
/// work still runs on one thread at a time. A timeout is reported to
/// ``BlockingHooks/timeoutReporter`` before `RxError.timeout` is thrown.
public struct BlockingObservable<Element> {
    let source: Observable<Element>
    let timeout: TimeInterval?
}

/// The whole outcome of a sequence, read by ``BlockingObservable/materialize()``.
@frozen
public enum MaterializedSequenceResult<T> {
    /// The sequence completed after these elements.
    case completed(elements: [T])
    /// The sequence failed (or the wait timed out) after these elements.
    case failed(elements: [T], error: Swift.Error)
}
