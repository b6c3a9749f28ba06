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

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - timeout: Seconds a whole request may take; 30 by default.
    ///   - maximumBodySize: The largest body accepted, in bytes; 10 MiB by default.
    ///   - additionalHeaders: Headers added to each request.
    ///   - allowsEmptyBody: Whether an empty successful body is accepted.
    public init(
        timeout: TimeInterval = 30,
        maximumBodySize: Int = 10 * 1024 * 1024,
        additionalHeaders: [String: String] = [:],
        allowsEmptyBody: Bool = false
    ) {
        precondition(timeout > 0, "timeout must be positive")
        precondition(maximumBodySize >= 0, "maximumBodySize must not be negative")
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.additionalHeaders = additionalHeaders
        self.allowsEmptyBody = allowsEmptyBody
    }

    /// 30 seconds, 10 MiB, no extra headers, empty bodies rejected.
    public static let `default` = NetworkConfiguration()
}
