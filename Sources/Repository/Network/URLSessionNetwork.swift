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
            return observeDataTask(request, in: session, router: delegate, limit: configuration.maximumBodySize, deadline: configuration.timeout)
                .subscribe(onNext: { outcome in complete(Self.result(of: outcome, configuration: configuration)) })
        }
    }

    /// What a request's outcome is for a ``Network``: the body, or a ``NetworkError``.
    private static func result(of outcome: DataTaskOutcome, configuration: NetworkConfiguration) -> NetworkResult {
        switch outcome {
        case .tooLarge(let limit):
            return .failure(.tooLarge(limit: limit))
        case .timedOut:
            return .failure(.timedOut)
        case .finished(let response, let body, let error):
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if let error {
                var failure = map(error)
                // A transport error after the answer began (the peer closed mid-body) is a lost
                // connection, whatever code the platform gives it.
                if case .unreachable = failure, status != 0 { failure = .connectionLost }
                return .failure(failure)
            }
            return ResponseValidation.validate(status: status, body: body ?? Data(), configuration: configuration)
        }
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
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
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
        completionHandler(transfer.receive(response) ? .allow : .cancel)
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
