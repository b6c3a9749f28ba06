import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Repository
import Streams
import Locking

/// A ``Network`` that passes requests on and keeps count of them: every URL requested, how
/// many were disposed before their answer, how many failed. The demo wraps the artwork's
/// network in one to report requests against URLs shown.
public final class RequestLog: Network, @unchecked Sendable {
    private let base: Network
    private let lock = Lock()
    private var urls: [URL] = []
    private var cancelled = 0
    private var failed = 0

    /// Wraps `base`.
    ///
    /// - Parameter base: The network that sends the requests.
    public init(_ base: Network) {
        self.base = base
    }

    /// Every URL requested, in order (repeats included).
    public var requestedURLs: [URL] { lock.withLock { urls } }
    /// How many requests were sent.
    public var requestCount: Int { lock.withLock { urls.count } }
    /// How many distinct URLs were requested.
    public var distinctURLCount: Int { lock.withLock { Set(urls).count } }
    /// How many requests were disposed before their answer (a reused cell cancelling its load).
    public var cancelledCount: Int { lock.withLock { cancelled } }
    /// How many requests failed.
    public var failedCount: Int { lock.withLock { failed } }

    /// Sends `request` through the wrapped network, counting it.
    ///
    ///     fetch(request): ----data|    (counted when subscribed)
    ///
    /// - Parameter request: The request.
    /// - Returns: The wrapped network's answer.
    public func fetch(_ request: URLRequest) -> Single<Data> {
        let base = self.base
        return Single.create { [self] single in
            let answered = AnswerFlag()
            lock.withLock { urls.append(request.url ?? URL(fileURLWithPath: "/")) }
            let subscription = base.fetch(request).subscribe { [self] result in
                answered.set()
                if case .failure = result { lock.withLock { failed += 1 } }
                single(result)
            }
            return Disposables.create { [self] in
                if !answered.isSet { lock.withLock { cancelled += 1 } }
                subscription.dispose()
            }
        }
    }
}

/// Whether a request was answered; set on the answering thread, read on the disposing one.
private final class AnswerFlag: @unchecked Sendable {
    private let lock = Lock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
