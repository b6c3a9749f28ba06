import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import Locking


extension Reactive where Base: NotificationCenter {
    /// The notifications posted with `name` (any name when `nil`) by `object` (any object when
    /// `nil`), from the time of the subscription until it is disposed. Each is delivered on the
    /// thread that posts it.
    ///
    ///     NotificationCenter.default.rx.notification(.cartChanged).subscribe(onNext: { … })
    ///
    /// - Parameters:
    ///   - name: The notification name to observe.
    ///   - object: The sender to observe.
    /// - Returns: The notifications; the sequence never completes.
    public func notification(_ name: Notification.Name?, object: AnyObject? = nil) -> Observable<Notification> {
        let center = UncheckedSendable(base)
        let sender = UncheckedSendable(object)
        return Observable.create { observer in
            let deliver = UncheckedSendable(observer)
            let token = center.value.addObserver(forName: name, object: sender.value, queue: nil) { notification in
                deliver.value.onNext(notification)
            }
            let registration = UncheckedSendable(token)
            return Disposables.create { center.value.removeObserver(registration.value) }
        }
    }
}

/// The errors of `URLSession.rx` requests.
public enum RxCocoaURLError: Swift.Error, CustomDebugStringConvertible {
    /// Neither a response nor an error came back.
    case unknown
    /// The response is not an HTTP response (a `file:` URL, say).
    case nonHTTPResponse(response: URLResponse)
    /// The status code is not in 200..<300; `data` is the body, if any.
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body is not what `json(request:)` can parse.
    case deserializationError(error: Swift.Error)

    /// A sentence saying what went wrong.
    public var debugDescription: String {
        switch self {
        case .unknown: "Unknown error has occurred."
        case .nonHTTPResponse(let response): "Response is not NSHTTPURLResponse `\(response)`."
        case .httpRequestFailed(let response, _): "HTTP request failed with `\(response.statusCode)`."
        case .deserializationError(let error): "Error during deserialization of the response: \(error)"
        }
    }
}

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
    /// - Parameter request: The request.
    /// - Returns: The response and the body; fails with the transport's error, or
    ///   ``RxCocoaURLError/nonHTTPResponse(response:)`` / ``RxCocoaURLError/unknown``.
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = UncheckedSendable(base)
        return Observable.create { observer in
            let deliver = UncheckedSendable(observer)
            let logs = Self.shouldLogRequest(request)
            if logs { print(Self.curlCommand(for: request)) }
            let started = Date()
            let task = session.value.dataTask(with: request) { data, response, error in
                if logs {
                    let seconds = String(format: "%.3f", Date().timeIntervalSince(started))
                    let status = (response as? HTTPURLResponse).map { "\($0.statusCode)" } ?? "no HTTP response"
                    print("\(request.url?.absoluteString ?? "?") (\(seconds)s): \(error.map { "\($0)" } ?? status)")
                }
                guard let response, let data else {
                    deliver.value.onError(error ?? RxCocoaURLError.unknown)
                    return
                }
                guard let http = response as? HTTPURLResponse else {
                    deliver.value.onError(RxCocoaURLError.nonHTTPResponse(response: response))
                    return
                }
                deliver.value.onNext((http, data))
                deliver.value.onCompleted()
            }
            task.resume()
            let running = UncheckedSendable(task)
            return Disposables.create { running.value.cancel() }
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
