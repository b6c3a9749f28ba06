import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import Locking

/// A ``Network`` that answers from in-memory routes: for tests, demos and previews.
///
/// Routes are keyed by the URL's path (`/pizzas`), so host and query do not matter, and
/// optionally by method: a route set for a method and path answers that method only and wins
/// over the path's route for every method, so a GET and a POST to one path can answer apart
/// (``setRoute(_:for:method:)``). Each
/// answer is delivered on the scheduler given at creation, after the route's delay: with a
/// `TestScheduler` tests are deterministic; with a real scheduler a demo feels like a network.
///
///     let network = FixtureNetwork(scheduler: scheduler)
///     network.setRoute(.json(#"[{"id": 1}]"#, delay: .seconds(20)), for: "/pizzas")
///     network.fetch(url: URL(string: "https://api.example.com/pizzas")!)
///     // ----------data|      (20 ticks later)
///     network.isOffline = true
///     // x                     (NetworkError.unreachable)
///
/// The same checks as ``URLSessionNetwork`` apply: a status outside `200..<300`, an empty
/// body or a body over ``NetworkConfiguration/maximumBodySize`` fail with their
/// ``NetworkError``. A path without a route answers `404`. Every request is counted per path
/// (see ``requestCount(for:)``), so tests can prove that subscribers share one request.
public final class FixtureNetwork: Network, @unchecked Sendable {
    /// How a path answers.
    public struct Route: Sendable, Equatable {
        /// The HTTP status.
        public var status: Int
        /// The body sent with the status.
        public var body: Data
        /// How long after the request the answer (or the failure) arrives.
        public var delay: RxTimeInterval
        /// When set, the request fails with this error instead of answering.
        public var failure: NetworkError?

        /// Creates a route.
        ///
        /// - Parameters:
        ///   - status: The HTTP status; 200 by default.
        ///   - body: The body.
        ///   - delay: How long until the answer arrives; none by default.
        ///   - failure: An error to fail with instead of answering.
        public init(status: Int = 200, body: Data = Data(), delay: RxTimeInterval = .seconds(0), failure: NetworkError? = nil) {
            self.status = status
            self.body = body
            self.delay = delay
            self.failure = failure
        }

        /// A JSON (or any text) answer.
        ///
        /// - Parameters:
        ///   - text: The body, encoded as UTF-8.
        ///   - status: The HTTP status; 200 by default.
        ///   - delay: How long until the answer arrives.
        /// - Returns: The route.
        public static func json(_ text: String, status: Int = 200, delay: RxTimeInterval = .seconds(0)) -> Route {
            Route(status: status, body: Data(text.utf8), delay: delay)
        }

        /// A binary answer.
        ///
        /// - Parameters:
        ///   - data: The body.
        ///   - status: The HTTP status; 200 by default.
        ///   - delay: How long until the answer arrives.
        /// - Returns: The route.
        public static func data(_ data: Data, status: Int = 200, delay: RxTimeInterval = .seconds(0)) -> Route {
            Route(status: status, body: data, delay: delay)
        }

        /// An answer with `status` and a text body.
        ///
        /// - Parameters:
        ///   - code: The HTTP status, e.g. 404 or 500.
        ///   - body: The body text.
        ///   - delay: How long until the answer arrives.
        /// - Returns: The route.
        public static func status(_ code: Int, body: String = "", delay: RxTimeInterval = .seconds(0)) -> Route {
            Route(status: code, body: Data(body.utf8), delay: delay)
        }

        /// A failure such as ``NetworkError/timedOut``.
        ///
        /// - Parameters:
        ///   - error: The error the request fails with.
        ///   - delay: How long until it fails.
        /// - Returns: The route.
        public static func failure(_ error: NetworkError, delay: RxTimeInterval = .seconds(0)) -> Route {
            Route(status: 0, delay: delay, failure: error)
        }

        /// Routes are equal when status, body, delay and failure are.
        public static func == (lhs: Route, rhs: Route) -> Bool {
            lhs.status == rhs.status && lhs.body == rhs.body && lhs.delay == rhs.delay && lhs.failure == rhs.failure
        }
    }

    /// The error an offline fixture fails with: ``NetworkError/unreachable(underlying:)`` of
    /// `URLError(.notConnectedToInternet)`.
    public static let offlineError = NetworkError.unreachable(underlying: URLError(.notConnectedToInternet))

    /// The limits applied to answers (body size, empty bodies); the timeout is not simulated:
    /// use a ``Route/failure(_:delay:)`` of ``NetworkError/timedOut`` instead.
    public let configuration: NetworkConfiguration

    private struct State {
        var routes: [String: Route]
        var methodRoutes: [MethodPath: Route] = [:]
        var isOffline = false
        /// Requests sent per method and path; a path's count is the sum over its methods.
        var counts: [MethodPath: Int] = [:]
        var requests: [URLRequest] = []
        var cancelled = 0
    }

    private struct MethodPath: Hashable {
        let method: HTTPMethod
        let path: String
    }

    private let scheduler: SchedulerType
    private let state: Locked<State>

    /// Creates a fixture network.
    ///
    /// - Parameters:
    ///   - scheduler: Where answers are delivered, after each route's delay (a `TestScheduler`
    ///     in tests, `MainScheduler.instance` in a demo).
    ///   - routes: Answers by path, e.g. `["/pizzas": .json("[]")]`.
    ///   - configuration: The body-size and empty-body rules.
    public init(scheduler: SchedulerType, routes: [String: Route] = [:], configuration: NetworkConfiguration = .default) {
        self.scheduler = scheduler
        self.configuration = configuration
        self.state = Locked(State(routes: routes))
    }

    /// When `true`, every new request fails with ``offlineError`` (after no delay).
    /// Requests already on their way still answer.
    public var isOffline: Bool {
        get { state.withLock { $0.isOffline } }
        set { state.withLock { $0.isOffline = newValue } }
    }

    /// Sets (or with `nil` removes) the answer for `path`.
    ///
    /// - Parameters:
    ///   - route: The answer.
    ///   - path: The URL path, e.g. `/pizzas`.
    public func setRoute(_ route: Route?, for path: String) {
        state.withLock { $0.routes[path] = route }
    }

    /// Sets (or with `nil` removes) the answer for requests with `method` to `path`; it wins
    /// over the path's route of ``setRoute(_:for:)`` for that method only.
    ///
    ///     network.setRoute(.json(messages), for: "/conversations/c1/messages", method: .get)
    ///     network.setRoute(.status(503), for: "/conversations/c1/messages", method: .post)
    ///
    /// - Parameters:
    ///   - route: The answer.
    ///   - path: The URL path, e.g. `/pizzas`.
    ///   - method: The HTTP method it answers.
    public func setRoute(_ route: Route?, for path: String, method: HTTPMethod) {
        state.withLock { $0.methodRoutes[MethodPath(method: method, path: path)] = route }
    }

    /// The answer for `path`, if any, whatever the method (the route of
    /// ``setRoute(_:for:)``).
    ///
    /// - Parameter path: The URL path.
    /// - Returns: The route, or `nil` (the path answers 404 unless a method's route answers).
    public func route(for path: String) -> Route? {
        state.withLock { $0.routes[path] }
    }

    /// The answer a request with `method` to `path` gets: the method's route, else the path's.
    ///
    /// - Parameters:
    ///   - path: The URL path.
    ///   - method: The HTTP method.
    /// - Returns: The route, or `nil` (such a request answers 404).
    public func route(for path: String, method: HTTPMethod) -> Route? {
        state.withLock { $0.methodRoutes[MethodPath(method: method, path: path)] ?? $0.routes[path] }
    }

    /// How many requests with `method` were sent for `path` (offline ones included).
    ///
    /// - Parameters:
    ///   - path: The URL path.
    ///   - method: The HTTP method.
    /// - Returns: The number of subscriptions that sent such a request.
    public func requestCount(for path: String, method: HTTPMethod) -> Int {
        state.withLock { $0.counts[MethodPath(method: method, path: path), default: 0] }
    }

    /// How many requests were sent for `path` (offline ones included).
    ///
    /// - Parameter path: The URL path.
    /// - Returns: The number of subscriptions that sent a request for it.
    public func requestCount(for path: String) -> Int {
        state.withLock { $0.counts.reduce(0) { $0 + ($1.key.path == path ? $1.value : 0) } }
    }

    /// How many requests were sent, for every path together.
    public var totalRequestCount: Int {
        state.withLock { $0.requests.count }
    }

    /// Every request sent, in order.
    public var requests: [URLRequest] {
        state.withLock { $0.requests }
    }

    /// How many requests were disposed before their answer arrived.
    public var cancelledRequestCount: Int {
        state.withLock { $0.cancelled }
    }

    /// Forgets the request log and counts (routes and the offline switch stay).
    public func resetCounts() {
        state.withLock {
            $0.counts = [:]
            $0.requests = []
            $0.cancelled = 0
        }
    }

    /// Answers `request` from its route after the route's delay, on the fixture's scheduler.
    ///
    ///     route .json("[]", delay: 20):  --------------------data|
    ///     offline:                       x
    ///
    /// - Parameter request: The request; its method and URL path select the answer (a method
    ///   missing from the request is `GET`, as URLSession sends it).
    /// - Returns: A single that succeeds with the body or fails with a ``NetworkError``.
    public func fetch(_ request: URLRequest) -> Single<Data> {
        let scheduler = self.scheduler
        let configuration = self.configuration
        let state = self.state
        return oneShot(on: ImmediateScheduler.instance) { complete in
            let path = request.url?.path ?? ""
            let key = MethodPath(method: HTTPMethod(rawValue: (request.httpMethod ?? "GET").uppercased()), path: path)
            let (route, offline) = state.withLock { state -> (Route?, Bool) in
                state.counts[key, default: 0] += 1
                state.requests.append(request)
                return (state.methodRoutes[key] ?? state.routes[path], state.isOffline)
            }
            let result: NetworkResult
            let delay: RxTimeInterval
            if offline {
                result = .failure(Self.offlineError)
                delay = .seconds(0)
            } else if let route {
                delay = route.delay
                if let failure = route.failure {
                    result = .failure(failure)
                } else {
                    result = ResponseValidation.validate(status: route.status, body: route.body, configuration: configuration)
                }
            } else {
                result = .failure(.badStatus(code: 404, body: Data()))
                delay = .seconds(0)
            }
            let answered = Locked(false)
            let scheduled = scheduler.scheduleRelative(result, dueTime: delay) { result in
                answered.withLock { $0 = true }
                complete(result)
                return Disposables.create()
            }
            return Disposables.create {
                let pending = answered.withLock { !$0 }
                if pending { state.withLock { $0.cancelled += 1 } }
                scheduled.dispose()
            }
        }
    }
}
