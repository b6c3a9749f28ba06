import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import Locking

/// Whether `URLSession.rx` prints each request and its outcome.
private let requestLogging = Locked<@Sendable (URLRequest) -> Bool>({ _ in
    #if DEBUG
    return true
    #else
    return false
    #endif
})

extension Reactive where Base: URLSession {
    /// Decides, per request, whether `URLSession.rx` prints it (as a `curl` command) and its
    /// outcome. By default every request in a debug build, none in a release build, as RxCocoa.
    public static var shouldLogRequest: @Sendable (URLRequest) -> Bool {
        get { requestLogging.withLock { $0 } }
        set { requestLogging.withLock { $0 = newValue } }
    }

    /// Runs `request` once per subscription and sends the HTTP response and its body, then
    /// completes; disposing cancels the request.
    ///
    ///     session.rx.response(request: request).subscribe(onNext: { response, data in … })
    ///
    /// This is RxCocoa's `URLSession.rx`, in the module that does networking: the task runs
    /// on the session as it is configured (no timeout, size limit or redirect policy of a
    /// ``URLSessionNetwork``), through the same one wrapper of a data task as that network.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response and the body; fails with the transport's error, or
    ///   ``RxCocoaURLError/nonHTTPResponse(response:)`` / ``RxCocoaURLError/unknown``.
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = UncheckedSendable(base)
        return Observable.deferred {
            let logs = Self.shouldLogRequest(request)
            if logs { print(Self.curlCommand(for: request)) }
            let started = Date()
            return observeDataTask(request, in: session.value).map { outcome in
                // Without a limit or a deadline, a task only ever finishes.
                guard case .finished(let response, let data, let error) = outcome else { throw RxCocoaURLError.unknown }
                if logs {
                    let seconds = String(format: "%.3f", Date().timeIntervalSince(started))
                    let status = (response as? HTTPURLResponse).map { "\($0.statusCode)" } ?? "no HTTP response"
                    print("\(request.url?.absoluteString ?? "?") (\(seconds)s): \(error.map { "\($0)" } ?? status)")
                }
                guard let response, let data else { throw error ?? RxCocoaURLError.unknown }
                guard let http = response as? HTTPURLResponse else { throw RxCocoaURLError.nonHTTPResponse(response: response) }
                return (http, data)
            }
        }
    }

    /// Runs `request` and sends the body when the status code is in 200..<300.
    ///
    /// - Parameter request: The request.
    /// - Returns: The body; fails with ``RxCocoaURLError/httpRequestFailed(response:data:)``
    ///   for another status.
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map { response, data in
            guard 200..<300 ~= response.statusCode else {
                throw RxCocoaURLError.httpRequestFailed(response: response, data: data)
            }
            return data
        }
    }

    /// Runs `request` and sends the body parsed with `JSONSerialization` (an empty body is
    /// `NSNull`).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - options: The parsing options.
    /// - Returns: The parsed JSON; fails with ``RxCocoaURLError/deserializationError(error:)``
    ///   when the body is not JSON.
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data in
            if data.isEmpty { return NSNull() }
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// Runs a GET of `url` and sends the body parsed as JSON.
    ///
    /// - Parameter url: The URL.
    /// - Returns: The parsed JSON.
    public func json(url: URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }

    static func curlCommand(for request: URLRequest) -> String {
        var parts = ["curl -X \(request.httpMethod ?? "GET")"]
        for (field, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts.append("-H \"\(field): \(value)\"")
        }
        if let body = request.httpBody, let text = String(data: body, encoding: .utf8) {
            parts.append("-d \"\(text.replacingOccurrences(of: "\"", with: "\\\""))\"")
        }
        parts.append("\"\(request.url?.absoluteString ?? "")\"")
        return parts.joined(separator: " ")
    }
}
