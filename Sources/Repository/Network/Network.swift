import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// Fetches the body of an HTTP request: the first layer of a repository.
///
/// A `Network` turns a request into a `Single` that succeeds with the response body or fails
/// with a ``NetworkError``. Nothing happens until the sequence is
/// subscribed; every subscription sends its own request; disposing the subscription before
/// the answer arrives cancels the request.
///
///     network.fetch(url: pizzasURL)
///         .subscribe(onSuccess: { data in … }, onFailure: { error in … })
///
/// Two implementations ship with the module: ``URLSessionNetwork`` talks to real servers, and
/// ``FixtureNetwork`` answers from in-memory routes for tests, demos and previews.
public protocol Network: Sendable {
    /// Sends `request` when subscribed and emits the response body once.
    ///
    ///     fetch(request): ----data|      (status 200..<300, non-empty body)
    ///     fetch(request): ----x          (NetworkError)
    ///
    /// - Parameter request: The request to send.
    /// - Returns: A single that succeeds with the body or fails with a ``NetworkError``.
    func fetch(_ request: URLRequest) -> Single<Data>
}

extension Network {
    /// Sends a request for `url` with `method` and emits the response body once.
    ///
    ///     fetch(url: u): ----data|
    ///
    /// - Parameters:
    ///   - url: The address of the resource.
    ///   - method: The HTTP method; `GET` when omitted.
    /// - Returns: A single that succeeds with the body or fails with a ``NetworkError``.
    public func fetch(url: URL, method: HTTPMethod = .get) -> Single<Data> {
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        return fetch(request)
    }

    /// Sends `body` encoded as JSON to `url` with `method` (`POST` when omitted), with the
    /// `Content-Type: application/json` header, and emits the response body once. The body is
    /// encoded once, by this call; a value the encoder refuses fails the single with the
    /// encoder's error (an `EncodingError`, not a ``NetworkError``: nothing was sent).
    ///
    ///     send(url: u, json: message): ----data|
    ///
    ///     network.send(url: api.appendingPathComponent("messages"), json: NewMessage(text: "hi"))
    ///
    /// - Parameters:
    ///   - url: The address of the resource.
    ///   - method: The HTTP method; `POST` when omitted.
    ///   - body: The value sent as the request body.
    ///   - encoder: The encoder; a plain `JSONEncoder` when omitted.
    /// - Returns: A single that succeeds with the response body or fails with a ``NetworkError``
    ///   (or the encoding error).
    public func send<Body: Encodable>(url: URL, method: HTTPMethod = .post, json body: Body, encoder: JSONEncoder = JSONEncoder()) -> Single<Data> {
        let data: Data
        do {
            data = try encoder.encode(body)
        } catch {
            return Single.error(error)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = data
        return fetch(request)
    }
}

/// An HTTP method such as `GET` or `POST`.
///
/// Any method can be spelled with a string literal: `let purge: HTTPMethod = "PURGE"`.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method as sent on the wire, e.g. `GET`.
    public let rawValue: String

    /// Creates a method from its wire spelling.
    ///
    /// - Parameter rawValue: The method name; upper case by convention.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a string literal.
    ///
    /// - Parameter value: The method name.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The method name.
    public var description: String { rawValue }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
}

/// The result a network implementation hands to ``oneShot(on:start:)``.
typealias NetworkResult = Result<Data, NetworkError>

/// Builds the `Single` every `Network` returns: `start` begins the work and calls its
/// completion at most once; the outcome is delivered on `scheduler`. Disposing the
/// subscription disposes what `start` returned (cancelling the work) and any delivery not yet
/// run.
func oneShot(
    on scheduler: ImmediateSchedulerType,
    start: @escaping (_ complete: @escaping @Sendable (NetworkResult) -> Void) -> Disposable
) -> Single<Data> {
    let scheduler = UncheckedSendable(scheduler)
    return Single.create { single in
        let delivery = SingleAssignmentDisposable()
        let sink = UncheckedSendable(single)
        let work = start { result in
            delivery.setDisposable(scheduler.value.schedule(result) { result in
                sink.value(result.mapError { $0 })
                return Disposables.create()
            })
        }
        return Disposables.create(work, delivery)
    }
}
