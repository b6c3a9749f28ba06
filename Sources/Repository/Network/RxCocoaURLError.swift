import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The errors of `URLSession.rx` requests, as RxCocoa's.
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
