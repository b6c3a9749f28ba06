import Foundation

/// Limits and defaults applied to every request of a ``Network``.
///
///     var configuration = NetworkConfiguration()
///     configuration.timeout = 10
///     configuration.maximumBodySize = 2 * 1024 * 1024
///     let network = URLSessionNetwork(configuration: configuration, scheduler: MainScheduler.instance)
public struct NetworkConfiguration: Sendable, Equatable {
    /// The longest a whole request may take, from sending it to the last byte of the body,
    /// in seconds. Past it the request is cancelled and fails with ``NetworkError/timedOut``.
    public var timeout: TimeInterval

    /// The largest body accepted, in bytes. A longer body fails with
    /// ``NetworkError/tooLarge(limit:)`` and the transfer is stopped as soon as the size is
    /// known (from `Content-Length`, or while bytes arrive).
    public var maximumBodySize: Int

    /// Headers added to every request that does not already set them.
    public var additionalHeaders: [String: String]

    /// When `false` (the default), a `200..<300` answer with an empty body fails with
    /// ``NetworkError/emptyBody``; set it for endpoints answering `204 No Content`.
    public var allowsEmptyBody: Bool

    /// Which HTTP redirects are followed; ``RedirectPolicy/sameHost`` by default. A redirect
    /// that is not followed fails with ``NetworkError/badStatus(code:body:)`` carrying the 3xx.
    public var redirects: RedirectPolicy

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - timeout: Seconds a whole request may take; 30 by default.
    ///   - maximumBodySize: The largest body accepted, in bytes; 10 MiB by default.
    ///   - additionalHeaders: Headers added to each request.
    ///   - allowsEmptyBody: Whether an empty successful body is accepted.
    ///   - redirects: Which redirects are followed; only those to the same host by default.
    public init(
        timeout: TimeInterval = 30,
        maximumBodySize: Int = 10 * 1024 * 1024,
        additionalHeaders: [String: String] = [:],
        allowsEmptyBody: Bool = false,
        redirects: RedirectPolicy = .sameHost
    ) {
        precondition(timeout > 0, "timeout must be positive")
        precondition(maximumBodySize >= 0, "maximumBodySize must not be negative")
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.additionalHeaders = additionalHeaders
        self.allowsEmptyBody = allowsEmptyBody
        self.redirects = redirects
    }

    /// 30 seconds, 10 MiB, no extra headers, empty bodies rejected, same-host redirects only.
    public static let `default` = NetworkConfiguration()
}

/// Which HTTP redirects (`301`, `302`, `303`, `307`, `308`) a network follows.
///
/// A redirect to another host can hand an app's requests — and the headers it adds to them —
/// to a server it never meant to talk to, so by default only same-host redirects are followed.
public enum RedirectPolicy: Sendable, Equatable {
    /// Follow every redirect.
    case follow
    /// Follow redirects whose target has the same scheme, host and port as the request.
    case sameHost
    /// Follow none: every 3xx fails with ``NetworkError/badStatus(code:body:)``.
    case never

    /// Whether a redirect from `original` to `target` is followed.
    ///
    /// - Parameters:
    ///   - original: The URL that answered with a redirect.
    ///   - target: Where the redirect points.
    /// - Returns: `true` when the policy allows it.
    public func allows(from original: URL?, to target: URL?) -> Bool {
        switch self {
        case .follow: return true
        case .never: return false
        case .sameHost:
            guard let original, let target else { return false }
            return original.scheme?.lowercased() == target.scheme?.lowercased()
                && original.host?.lowercased() == target.host?.lowercased()
                && original.port == target.port
        }
    }
}
