import Foundation
import Streams

/// Why a ``Network`` request produced no body.
///
/// Each failure has its own case so that callers can react precisely: show "offline" for
/// ``unreachable(underlying:)``, offer a retry for ``timedOut`` and ``connectionLost``, report
/// ``badStatus(code:body:)`` with the server's message. `localizedDescription` (from
/// `LocalizedError`) is a sentence a screen can show; `description` names the case for logs.
public enum NetworkError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The server could not be reached: no connection, refused, DNS failure, TLS failure, a
    /// malformed URL. `underlying` is the transport's error.
    case unreachable(underlying: Error)
    /// The connection broke after the request was sent: the server closed it or the network
    /// dropped before the whole answer arrived (`URLError.networkConnectionLost`).
    case connectionLost
    /// The request took longer than the configured timeout.
    case timedOut
    /// The server answered with a status outside `200..<300`; `body` is what it sent.
    case badStatus(code: Int, body: Data)
    /// The server answered `200..<300` with an empty body.
    case emptyBody
    /// The request was cancelled by something other than disposing its subscription (for
    /// example the session was invalidated). Disposing a subscription delivers nothing.
    case cancelled
    /// The body is longer than the configured maximum of `limit` bytes; the transfer was
    /// stopped as soon as that was known.
    case tooLarge(limit: Int)

    /// A short description naming the case.
    public var description: String {
        switch self {
        case .unreachable(let underlying): return "NetworkError.unreachable(\(underlying))"
        case .connectionLost: return "NetworkError.connectionLost"
        case .timedOut: return "NetworkError.timedOut"
        case .badStatus(let code, let body): return "NetworkError.badStatus(code: \(code), body: \(body.count) bytes)"
        case .emptyBody: return "NetworkError.emptyBody"
        case .cancelled: return "NetworkError.cancelled"
        case .tooLarge(let limit): return "NetworkError.tooLarge(limit: \(limit))"
        }
    }
}

extension NetworkError {
    /// A sentence for a screen: "The server could not be reached.", "The connection was lost
    /// before the answer arrived.", "The server took too long to answer.", "The server answered
    /// with an error (HTTP 500).", …
    public var errorDescription: String? {
        switch self {
        case .unreachable: return "The server could not be reached."
        case .connectionLost: return "The connection was lost before the answer arrived."
        case .timedOut: return "The server took too long to answer."
        case .badStatus(let code, _): return "The server answered with an error (HTTP \(code))."
        case .emptyBody: return "The server sent an empty answer."
        case .cancelled: return "The request was cancelled."
        case .tooLarge: return "The server's answer is too large."
        }
    }
}

extension NetworkError: Equatable {
    /// Cases are equal when they match and so do their values; underlying errors are compared
    /// with `errorsAreEqual` (by value when `Equatable`, otherwise by type and description).
    public static func == (lhs: NetworkError, rhs: NetworkError) -> Bool {
        switch (lhs, rhs) {
        case (.unreachable(let a), .unreachable(let b)): return errorsAreEqual(a, b)
        case (.timedOut, .timedOut), (.connectionLost, .connectionLost), (.emptyBody, .emptyBody), (.cancelled, .cancelled): return true
        case (.badStatus(let c1, let b1), .badStatus(let c2, let b2)): return c1 == c2 && b1 == b2
        case (.tooLarge(let l1), .tooLarge(let l2)): return l1 == l2
        default: return false
        }
    }
}

/// The checks every `Network` applies to a complete response, so that a fixture and a real
/// server fail the same way.
enum ResponseValidation {
    /// The statuses accepted as success.
    static let acceptedStatus = 200..<300

    /// Turns a finished response into the outcome a subscriber sees.
    static func validate(status: Int, body: Data, configuration: NetworkConfiguration) -> NetworkResult {
        if body.count > configuration.maximumBodySize {
            return .failure(.tooLarge(limit: configuration.maximumBodySize))
        }
        guard acceptedStatus.contains(status) else {
            return .failure(.badStatus(code: status, body: body))
        }
        if body.isEmpty && !configuration.allowsEmptyBody {
            return .failure(.emptyBody)
        }
        return .success(body)
    }
}
