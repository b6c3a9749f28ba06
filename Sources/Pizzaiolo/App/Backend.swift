import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeadlessUI
import Repository
import Streams
import Locking

/// The server side of the app: the embedded fixture API on a virtual clock, or a real server.
///
/// A backend outlives app launches (the kitchen keeps running while the app restarts). It can
/// be switched offline, and ``settle()`` lets every request in flight finish and delivers the
/// results to the screens — the headless stand-in for "wait until the spinner stops".
public final class Backend: @unchecked Sendable {
    /// The address requests go to.
    public let baseURL: URL
    /// The network every repository of the app uses (requests are counted while in flight).
    public let network: Network
    /// The embedded API's network, to change its routes (nil for a real server).
    public let fixture: FixtureNetwork?
    /// Where responses are decoded and written to the store: a serial queue off the main
    /// thread, as ``Repository/Mapper/fromJSON(_:on:)`` asks.
    public let decodingScheduler: ImmediateSchedulerType

    private let tracking: TrackingNetwork
    private let clock: VirtualTimeScheduler<IntegerVirtualTimeConverter>?

    /// The embedded API: answers from ``PizzaioloAPI`` after `latencyMilliseconds` of virtual
    /// time, so runs are fast and deterministic.
    ///
    /// - Parameter latencyMilliseconds: How long each answer takes; 120 ms by default.
    /// - Returns: The backend.
    public static func embedded(latencyMilliseconds: Int = 120) -> Backend {
        let clock = VirtualTimeScheduler(initialClock: 0, converter: IntegerVirtualTimeConverter(resolution: 0.001))
        let fixture = FixtureNetwork(scheduler: clock, routes: PizzaioloAPI.routes(latency: .milliseconds(latencyMilliseconds)))
        return Backend(baseURL: PizzaioloAPI.embeddedBaseURL, network: fixture, fixture: fixture, clock: clock)
    }

    /// A real server (for example `python3 -m http.server` over ``PizzaioloAPI/export(to:)``).
    ///
    /// - Parameter baseURL: The server's address, e.g. `http://127.0.0.1:8000`.
    /// - Returns: The backend.
    public static func server(_ baseURL: URL) -> Backend {
        let network = URLSessionNetwork(configuration: NetworkConfiguration(timeout: 10), scheduler: MainScheduler.instance)
        return Backend(baseURL: baseURL, network: network, fixture: nil, clock: nil)
    }

    private init(baseURL: URL, network: Network, fixture: FixtureNetwork?, clock: VirtualTimeScheduler<IntegerVirtualTimeConverter>?) {
        self.baseURL = baseURL
        self.tracking = TrackingNetwork(base: network)
        self.network = tracking
        self.fixture = fixture
        self.clock = clock
        decodingScheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "pizzaiolo.decoding")
    }

    /// When `true`, every new request fails at once as a device without a connection would.
    public var isOffline: Bool {
        get { tracking.isOffline }
        set { tracking.isOffline = newValue }
    }

    /// Requests sent so far.
    public var requestCount: Int { tracking.sent }

    /// Requests not answered yet, and answers not yet decoded, stored and back on the main
    /// scheduler.
    public var requestsInFlight: Int { tracking.inFlight }

    /// Lets every request in flight finish (advancing the virtual clock, or waiting up to
    /// `timeout` seconds for a real server), applies the results on the main scheduler, and
    /// waits for the decoding queue to release the subscriptions of the decodes it ran.
    ///
    /// - Parameter timeout: The longest wait for a real server.
    @MainActor
    public func settle(timeout: TimeInterval = 10) {
        _ = Headless.drain()
        if let clock {
            // Runs the clock until nothing is scheduled (answers arrive in the order of their
            // due times), then lets the screens react; their reactions may send more requests.
            // Answers are decoded off the main thread: each round waits for those before the
            // next runs the clock again.
            var rounds = 0
            repeat {
                Headless.run { clock.start() }
                _ = MainScheduler.run(until: { tracking.decoding == 0 }, timeout: timeout)
                rounds += 1
            } while tracking.inFlight > 0 && rounds < 1_000
        } else {
            _ = MainScheduler.run(until: { tracking.inFlight == 0 }, timeout: timeout)
        }
        // A decode's subscription is disposed on the decoding queue (`subscribe(on:)` disposes
        // where it subscribed), after its answer reached the main thread: wait for what that
        // queue holds, so a settled app keeps no subscription that is only waiting to be freed.
        let idle = DispatchSemaphore(value: 0)
        _ = decodingScheduler.schedule(()) { _ in
            idle.signal()
            return Disposables.create()
        }
        _ = idle.wait(timeout: .now() + timeout)
        _ = Headless.drain()
    }

    /// A URL of the API.
    func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    /// Fetches `path` and has `mapper` decode and store the answer on the decoding scheduler;
    /// the view models arrive on the main scheduler. The request counts as in flight until
    /// then (see ``settle(timeout:)``).
    func fetch<Response, Model, ViewModel>(_ path: String, mappedBy mapper: Mapper<Response, Model, ViewModel>) -> Observable<[ViewModel]> {
        let tracking = self.tracking
        let decodingScheduler = self.decodingScheduler
        return network.fetch(url: url(path)).asObservable()
            .flatMap { data in
                Observable<[ViewModel]>.deferred {
                    tracking.beginDecoding()
                    return mapper.fromJSON(data, on: decodingScheduler).asObservable()
                        .observe(on: MainScheduler.instance)
                        .do(onDispose: tracking.endDecoding)
                }
            }
    }
}

/// Counts requests in flight, and fails new ones while offline.
final class TrackingNetwork: Network, @unchecked Sendable {
    private let base: Network
    private let lock = Lock()
    private var running = 0
    private var decodes = 0
    private var total = 0
    private var offline = false

    init(base: Network) { self.base = base }

    var inFlight: Int { lock.withLock { running + decodes } }
    var decoding: Int { lock.withLock { decodes } }
    func beginDecoding() { lock.withLock { decodes += 1 } }
    func endDecoding() { lock.withLock { decodes -= 1 } }
    var sent: Int { lock.withLock { total } }
    var isOffline: Bool {
        get { lock.withLock { offline } }
        set { lock.withLock { offline = newValue } }
    }

    func fetch(_ request: URLRequest) -> Single<Data> {
        let base = self.base
        return Observable<Data>.deferred { [self] in
            if isOffline { return .error(FixtureNetwork.offlineError) }
            var finished = false
            return base.fetch(request).asObservable().do(
                onSubscribe: { self.lock.withLock { self.running += 1; self.total += 1 } },
                onDispose: {
                    self.lock.withLock {
                        if !finished { finished = true; self.running -= 1 }
                    }
                })
        }
        .asSingle()
    }
}
