import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import Locking

/// How one data task ended.
enum DataTaskOutcome {
    /// The task completed: what its completion handler (or the session's delegate) reported.
    case finished(response: URLResponse?, body: Data?, error: Error?)
    /// The body went over the size limit; the task was cancelled.
    case tooLarge(limit: Int)
    /// The deadline passed first; the task was cancelled.
    case timedOut
}

/// The package's one place that turns a `URLSession` data task into a sequence, under both
/// `URLSession.rx` and ``URLSessionNetwork``.
///
/// Each subscription creates and resumes one task and sends how it ended, once, then completes;
/// disposing cancels the task. With a `router` (the delegate of a ``URLSessionNetwork``'s own
/// session) the task is followed through the delegate, which streams the body, stops it past
/// `limit` and fails early on a `Content-Length` over it; without one (any other session) the
/// task reports through its completion handler. A `deadline` bounds the whole task.
///
/// - Parameters:
///   - request: The request to send.
///   - session: The session that runs the task.
///   - router: The session's delegate, when it is a ``URLSessionNetwork``'s.
///   - limit: The largest body accepted (only with a `router`).
///   - deadline: Seconds after which the task is cancelled and the outcome is `.timedOut`.
/// - Returns: One outcome per subscription.
func observeDataTask(_ request: URLRequest, in session: URLSession, router: SessionDelegate? = nil, limit: Int = .max, deadline: TimeInterval? = nil) -> Observable<DataTaskOutcome> {
    let session = UncheckedSendable(session)
    return Observable.create { observer in
        let deliver = UncheckedSendable(observer)
        let transfer = Transfer(limit: limit) { outcome in
            deliver.value.onNext(outcome)
            deliver.value.onCompleted()
        }
        let task: URLSessionTask
        if let router {
            task = session.value.dataTask(with: request)
            router.register(transfer, for: task.taskIdentifier)
        } else {
            task = session.value.dataTask(with: request) { data, response, error in
                transfer.finish(.finished(response: response, body: data, error: error), cancelTask: false)
            }
        }
        transfer.attach(task)
        if let deadline {
            let item = DispatchWorkItem { [weak transfer] in
                transfer?.finish(.timedOut, cancelTask: true)
            }
            transfer.setDeadline(item)
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: item)
        }
        task.resume()
        let identifier = task.taskIdentifier
        return Disposables.create {
            transfer.abandon()
            router?.unregister(identifier)
        }
    }
}

/// The state of one data task: its response and the bytes received so far, and the completion,
/// called once.
final class Transfer: @unchecked Sendable {
    private struct State {
        var complete: (@Sendable (DataTaskOutcome) -> Void)?
        var task: URLSessionTask?
        var response: URLResponse?
        var body = Data()
        var deadline: DispatchWorkItem?
    }

    private let limit: Int
    private let state: Locked<State>

    init(limit: Int, complete: @escaping @Sendable (DataTaskOutcome) -> Void) {
        self.limit = limit
        self.state = Locked(State(complete: complete))
    }

    /// The task this transfer follows (set before it is resumed).
    func attach(_ task: URLSessionTask) {
        state.withLock { $0.task = task }
    }

    func setDeadline(_ item: DispatchWorkItem) {
        let finished = state.withLock { state -> Bool in
            guard state.complete != nil else { return true }
            state.deadline = item
            return false
        }
        if finished { item.cancel() }
    }

    /// Records the response; ends early when `Content-Length` already exceeds the limit.
    /// - Returns: `false` when the transfer must stop.
    func receive(_ response: URLResponse) -> Bool {
        state.withLock { $0.response = response }
        if response.expectedContentLength > Int64(limit) {
            finish(.tooLarge(limit: limit), cancelTask: false)
            return false
        }
        return true
    }

    /// Appends bytes; stops the transfer once the body exceeds the limit.
    func receive(_ data: Data) {
        let exceeded = state.withLock { state -> Bool in
            guard state.complete != nil else { return false }
            state.body.append(data)
            return state.body.count > limit
        }
        if exceeded { finish(.tooLarge(limit: limit), cancelTask: true) }
    }

    /// The task ended (reported through the session's delegate): the response and the body
    /// received, or the transport's error.
    func complete(error: Error?) {
        let (response, body) = state.withLock { ($0.response, $0.body) }
        finish(.finished(response: response, body: body, error: error), cancelTask: false)
    }

    /// Delivers `outcome` unless something was delivered already (or the subscriber left).
    func finish(_ outcome: DataTaskOutcome, cancelTask: Bool) {
        let taken = state.withLock { state -> ((@Sendable (DataTaskOutcome) -> Void)?, DispatchWorkItem?, URLSessionTask?) in
            defer { state.complete = nil; state.deadline = nil; state.body = Data(); state.task = nil }
            return (state.complete, state.deadline, state.task)
        }
        guard let complete = taken.0 else { return }
        taken.1?.cancel()
        if cancelTask { taken.2?.cancel() }
        complete(outcome)
    }

    /// The subscriber left: deliver nothing and cancel the task.
    func abandon() {
        let taken = state.withLock { state -> (DispatchWorkItem?, URLSessionTask?) in
            defer { state.complete = nil; state.deadline = nil; state.body = Data(); state.task = nil }
            return (state.deadline, state.task)
        }
        taken.0?.cancel()
        taken.1?.cancel()
    }
}
