import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import Locking

/// A ``Network`` that talks to real servers through `URLSession`.
///
///     let network = URLSessionNetwork(scheduler: MainScheduler.instance)
///     network.fetch(url: URL(string: "https://example.com/pizzas.json")!)
///         .subscribe(onSuccess: { data in … })    // delivered on the main scheduler
///
/// Only `200..<300` answers with a non-empty body succeed; everything else fails with a
/// ``NetworkError``. Bodies are streamed and the transfer stops as soon as the body exceeds
/// ``NetworkConfiguration/maximumBodySize``. The whole request is bounded by
/// ``NetworkConfiguration/timeout``. Disposing a subscription cancels its `URLSessionTask`.
///
/// On Linux this uses `FoundationNetworking`.
public final class URLSessionNetwork: Network, @unchecked Sendable {
    /// The limits applied to every request.
    public let configuration: NetworkConfiguration

    private let scheduler: ImmediateSchedulerType
    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates a network with its own `URLSession`.
    ///
    /// - Parameters:
    ///   - configuration: Timeout, body size limit and extra headers.
    ///   - scheduler: Where results are delivered (for example `MainScheduler.instance`).
    public init(configuration: NetworkConfiguration = .default, scheduler: ImmediateSchedulerType) {
        self.configuration = configuration
        self.scheduler = scheduler
        let delegate = SessionDelegate(redirects: configuration.redirects)
        self.delegate = delegate
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        sessionConfiguration.timeoutIntervalForResource = configuration.timeout
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "ReactiveMVVM.URLSessionNetwork"
        self.session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends `request` when subscribed and emits the response body once, on the scheduler
    /// given at creation.
    ///
    ///     fetch(request): ----data|
    ///     fetch(request): ----x         (NetworkError)
    ///
    /// - Parameter request: The request; its own timeout is capped by the configuration's.
    /// - Returns: A single that succeeds with the body or fails with a ``NetworkError``.
    public func fetch(_ request: URLRequest) -> Single<Data> {
        let configuration = self.configuration
        return oneShot(on: scheduler) { [self] complete in
            var request = request
            request.timeoutInterval = min(request.timeoutInterval, configuration.timeout)
            for (field, value) in configuration.additionalHeaders where request.value(forHTTPHeaderField: field) == nil {
                request.setValue(value, forHTTPHeaderField: field)
            }
            let task = session.dataTask(with: request)
            let transfer = Transfer(task: task, configuration: configuration, complete: complete)
            delegate.register(transfer, for: task.taskIdentifier)
            let deadline = DispatchWorkItem { [weak transfer] in
                transfer?.finish(.failure(.timedOut), cancelTask: true)
            }
            transfer.setDeadline(deadline)
            DispatchQueue.global().asyncAfter(deadline: .now() + configuration.timeout, execute: deadline)
            task.resume()
            return Disposables.create { [weak self] in
                transfer.abandon()
                self?.delegate.unregister(task.taskIdentifier)
            }
        }
    }
}

/// The state of one request: the bytes received so far and the completion, called once.
private final class Transfer: @unchecked Sendable {
    private struct State {
        var complete: (@Sendable (NetworkResult) -> Void)?
        var status = 0
        var body = Data()
        var deadline: DispatchWorkItem?
    }

    let task: URLSessionTask
    let configuration: NetworkConfiguration
    private let state: Locked<State>

    init(task: URLSessionTask, configuration: NetworkConfiguration, complete: @escaping @Sendable (NetworkResult) -> Void) {
        self.task = task
        self.configuration = configuration
        self.state = Locked(State(complete: complete))
    }

    func setDeadline(_ item: DispatchWorkItem) {
        let finished = state.withLock { state -> Bool in
            guard state.complete != nil else { return true }
            state.deadline = item
            return false
        }
        if finished { item.cancel() }
    }

    /// Records the status; fails early when `Content-Length` already exceeds the limit.
    /// - Returns: `false` when the transfer must stop.
    func receive(status: Int, expectedLength: Int64) -> Bool {
        state.withLock { $0.status = status }
        if expectedLength > Int64(configuration.maximumBodySize) {
            finish(.failure(.tooLarge(limit: configuration.maximumBodySize)), cancelTask: false)
            return false
        }
        return true
    }

    /// Appends bytes; stops the transfer once the body exceeds the limit.
    func receive(_ data: Data) {
        let limit = configuration.maximumBodySize
        let exceeded = state.withLock { state -> Bool in
            guard state.complete != nil else { return false }
            state.body.append(data)
            return state.body.count > limit
        }
        if exceeded { finish(.failure(.tooLarge(limit: limit)), cancelTask: true) }
    }

    /// The task ended: turn the transport error or the response into the outcome.
    func complete(error: Error?) {
        if let error {
            var failure = Self.map(error)
            // A transport error after the answer began (the peer closed mid-body) is a lost
            // connection, whatever code the platform gives it.
            if case .unreachable = failure, state.withLock({ $0.status != 0 }) { failure = .connectionLost }
            finish(.failure(failure), cancelTask: false)
            return
        }
        let (status, body) = state.withLock { ($0.status, $0.body) }
        finish(ResponseValidation.validate(status: status, body: body, configuration: configuration), cancelTask: false)
    }

    /// Delivers `result` unless something was delivered already (or the subscriber left).
    func finish(_ result: NetworkResult, cancelTask: Bool) {
        let taken = state.withLock { state -> ((@Sendable (NetworkResult) -> Void)?, DispatchWorkItem?) in
            defer { state.complete = nil; state.deadline = nil; state.body = Data() }
            return (state.complete, state.deadline)
        }
        guard let complete = taken.0 else { return }
        taken.1?.cancel()
        if cancelTask { task.cancel() }
        complete(result)
    }

    /// The subscriber left: deliver nothing and cancel the task.
    func abandon() {
        let deadline = state.withLock { state -> DispatchWorkItem? in
            defer { state.complete = nil; state.deadline = nil; state.body = Data() }
            return state.deadline
        }
        deadline?.cancel()
        task.cancel()
    }

    private static func map(_ error: Error) -> NetworkError {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return .timedOut
            case .cancelled: return .cancelled
            case .networkConnectionLost: return .connectionLost
            default: return .unreachable(underlying: urlError)
            }
        }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            switch nsError.code {
            case NSURLErrorTimedOut: return .timedOut
            case NSURLErrorCancelled: return .cancelled
            case NSURLErrorNetworkConnectionLost: return .connectionLost
            default: break
            }
        }
        return .unreachable(underlying: error)
    }
}

/// Routes `URLSession` delegate calls to the ``Transfer`` of each task.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let transfers = Locked<[Int: Transfer]>([:])
    private let redirects: RedirectPolicy

    init(redirects: RedirectPolicy) {
        self.redirects = redirects
    }

    func register(_ transfer: Transfer, for identifier: Int) {
        transfers.withLock { $0[identifier] = transfer }
    }

    func unregister(_ identifier: Int) {
        _ = transfers.withLock { $0.removeValue(forKey: identifier) }
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(dataTask) else {
            completionHandler(.cancel)
            return
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        completionHandler(transfer.receive(status: status, expectedLength: response.expectedContentLength) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        // Declining (nil) makes the 3xx the final answer, which fails as a bad status.
        let from = response.url ?? task.currentRequest?.url ?? task.originalRequest?.url
        var next = request
        // Resolve a relative Location ourselves: FoundationNetworking drops a trailing slash
        // when it resolves `/folder/` against `/folder`, and would loop until "too many redirects".
        if let location = response.value(forHTTPHeaderField: "Location"),
           let resolved = URL(string: location, relativeTo: from)?.absoluteURL,
           resolved != request.url {
            next.url = resolved
        }
        completionHandler(redirects.allows(from: from, to: next.url) ? next : nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.complete(error: error)
    }
}
