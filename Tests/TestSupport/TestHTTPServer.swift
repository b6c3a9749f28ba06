#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A small HTTP/1.1 server for tests, on 127.0.0.1 and an ephemeral port.
///
/// It answers each connection on its own thread (at most `maxConnections` at a time), closes
/// every connection after one answer, and stops itself: ``stop()`` is idempotent, waits for
/// every thread to finish (bounded), and runs from `deinit` too. Every wait inside the server
/// is bounded and wakes up when the server stops, so no test can hang on it.
public final class TestHTTPServer: @unchecked Sendable {
    /// What a path answers.
    public enum Action: Sendable {
        /// Answer at once.
        case respond(status: Int, contentType: String = "application/json", body: Data)
        /// Answer after `seconds` (or give up when the server stops first).
        case respondAfter(seconds: Double, status: Int, body: Data)
        /// Answer once the test calls ``release(_:)`` for the path (or give up when the server
        /// stops, or after 60 s).
        case respondWhenReleased(status: Int, body: Data)
        /// Never answer; record when the client closes the connection.
        case hang
        /// Send `total` bytes without `Content-Length`, in chunks, until done or the client
        /// goes away (about 1 ms per 16 KiB chunk); records the bytes actually sent.
        case stream(total: Int)
        /// Answer `status` (a 3xx) with a `Location` header and a short body; `{port}` in
        /// `location` becomes the server's port.
        case redirect(status: Int, location: String)
        /// Announce `Content-Length` for all of `body`, send only its first `sentBytes` bytes,
        /// then close the connection: a connection lost mid-body.
        case dropAfter(sentBytes: Int, body: Data)
    }

    /// The port the server listens on, chosen by the system.
    public let port: UInt16
    private var routes: [String: Action]
    private let listener: Int32
    private let maxConnections: Int
    private let condition = NSCondition()
    private var stopping = false
    private var liveThreads = 0
    private var requestLog: [String] = []
    private var pathCounts: [String: Int] = [:]
    private var closedByClientLog: [String] = []
    private var streamedBytes: [String: Int] = [:]
    private var released: Set<String> = []

    /// Starts listening.
    ///
    /// - Parameter routes: Actions by path; unknown paths answer 404.
    public init(routes: [String: Action], maxConnections: Int = 16) throws {
        self.routes = routes
        self.maxConnections = maxConnections
        listener = try Self.makeListener()
        port = try Self.boundPort(of: listener)
        spawn { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// `http://127.0.0.1:port`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The server's URL for `path` (which starts with `/`).
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// `METHOD /path` of every request received, in order.
    public var requests: [String] { condition.withLock { requestLog } }

    /// The paths whose client closed the connection while the server was waiting (`.hang`).
    public var closedByClient: [String] { condition.withLock { closedByClientLog } }

    /// How many requests arrived for `path` (query included, as sent).
    public func requestCount(_ path: String) -> Int { condition.withLock { pathCounts[path, default: 0] } }

    /// How many requests arrived in all.
    public var requestTotal: Int { condition.withLock { requestLog.count } }

    /// Changes what `path` answers from the next request on (`nil`: 404), e.g. a page that
    /// failed and answers on retry.
    public func setRoute(_ action: Action?, for path: String) {
        condition.withLock { routes[path] = action }
    }

    /// Lets `.respondWhenReleased` requests for `path` answer.
    public func release(_ path: String) {
        condition.withLock {
            released.insert(path)
            condition.broadcast()
        }
    }

    /// Bytes sent for a `.stream` path, once its connection ended.
    public func streamed(_ path: String) -> Int? { condition.withLock { streamedBytes[path] } }

    /// Waits until `predicate` holds (checked whenever the server's state changes).
    ///
    /// - Returns: `true` if it held within `timeout` seconds.
    public func wait(timeout: Double = 30, until predicate: (TestHTTPServer) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            condition.unlock()
            let holds = predicate(self)
            condition.lock()
            if holds { return true }
            if Date() >= deadline { return false }
            _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.05)))
        }
    }

    /// Stops accepting, wakes every waiting handler, and waits (up to 10 s) for all threads.
    public func stop() {
        condition.lock()
        let first = !stopping
        stopping = true
        condition.broadcast()
        let deadline = Date().addingTimeInterval(10)
        while liveThreads > 0, Date() < deadline {
            _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.05)))
        }
        condition.unlock()
        if first { close(listener) }
    }

    /// A port on 127.0.0.1 where nothing listens (bound, then released).
    public static func unusedPort() throws -> UInt16 {
        let fd = socket(AF_INET, Self.streamType, 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = loopback(port: 0)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { throw POSIXError(.EADDRINUSE) }
        return try boundPort(of: fd)
    }

    // MARK: - Machinery

    private var isStopping: Bool { condition.withLock { stopping } }

    private func spawn(_ body: @escaping @Sendable () -> Void) {
        condition.withLock { liveThreads += 1 }
        let thread = Thread { [self] in
            body()
            condition.withLock {
                liveThreads -= 1
                condition.broadcast()
            }
        }
        thread.start()
    }

    private func acceptLoop() {
        while !isStopping {
            var pollDescriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let admitted = condition.withLock { liveThreads - 1 < maxConnections }
            guard admitted else {
                close(client)
                continue
            }
            spawn { [self] in
                handle(client)
                close(client)
            }
        }
    }

    private func handle(_ client: Int32) {
        guard let (method, path) = readRequestLine(client) else { return }
        condition.withLock {
            requestLog.append("\(method) \(path)")
            pathCounts[path, default: 0] += 1
            condition.broadcast()
        }
        switch condition.withLock({ routes[path] }) {
        case .respond(let status, let contentType, let body):
            respond(client, status: status, contentType: contentType, body: body)
        case .respondAfter(let seconds, let status, let body):
            let deadline = Date().addingTimeInterval(seconds)
            condition.withLock {
                while !stopping, Date() < deadline { _ = condition.wait(until: deadline) }
            }
            respond(client, status: status, contentType: "application/json", body: body)
        case .respondWhenReleased(let status, let body):
            let deadline = Date().addingTimeInterval(60)
            condition.withLock {
                while !stopping, !released.contains(path), Date() < deadline { _ = condition.wait(until: deadline) }
            }
            respond(client, status: status, contentType: "application/octet-stream", body: body)
        case .hang:
            let deadline = Date().addingTimeInterval(60)
            while !isStopping, Date() < deadline {
                var pollDescriptor = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                guard poll(&pollDescriptor, 1, 50) > 0 else { continue }
                var byte: UInt8 = 0
                if recv(client, &byte, 1, 0) <= 0 {
                    condition.withLock {
                        closedByClientLog.append(path)
                        condition.broadcast()
                    }
                    return
                }
            }
        case .stream(let total):
            let header = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n"
            guard write(client, Data(header.utf8)) else { return }
            let chunk = Data(repeating: 0x61, count: 16 * 1024)
            var sent = 0
            while sent < total, !isStopping {
                let piece = chunk.prefix(min(chunk.count, total - sent))
                guard write(client, piece) else { break }
                sent += piece.count
                usleep(1_000)  // paced, so that a client that stops reading is noticed long before the end
            }
            condition.withLock {
                streamedBytes[path] = sent
                condition.broadcast()
            }
        case .redirect(let status, let template):
            let location = template.replacingOccurrences(of: "{port}", with: "\(port)")
            respond(client, status: status, contentType: "text/plain", body: Data("moved to \(location)".utf8),
                    extraHeaders: "Location: \(location)\r\n")
        case .dropAfter(let sentBytes, let body):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            _ = write(client, Data(head.utf8) + body.prefix(sentBytes))
        case nil:
            respond(client, status: 404, contentType: "text/plain", body: Data("no route for \(path)".utf8))
        }
    }

    private func readRequestLine(_ client: Int32) -> (String, String)? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(10)
        while received.count < 64 * 1024, !isStopping, Date() < deadline {
            if let end = received.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let parts = head.split(separator: "\r\n").first?.split(separator: " ") ?? []
                guard parts.count >= 2 else { return nil }
                return (String(parts[0]), String(parts[1]))
            }
            var pollDescriptor = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 50) > 0 else { continue }
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        return nil
    }

    private func respond(_ client: Int32, status: Int, contentType: String, body: Data, extraHeaders: String = "") {
        let head = "HTTP/1.1 \(status) \(status < 300 ? "OK" : "Error")\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\(extraHeaders)Connection: close\r\n\r\n"
        _ = write(client, Data(head.utf8) + body)
        shutdown(client, Int32(SHUT_WR))
    }

    /// Sends all of `data`; `false` once the peer is gone.
    private func write(_ client: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            guard var pointer = raw.baseAddress else { return true }
            var remaining = raw.count
            while remaining > 0 {
                let sent = send(client, pointer, remaining, Self.noSignal)
                if sent <= 0 { return false }
                pointer += sent
                remaining -= sent
            }
            return true
        }
    }

    #if os(Linux)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let noSignal: Int32 = 0
    private static let streamType = SOCK_STREAM
    #endif

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    private static func makeListener() throws -> Int32 {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        #if !os(Linux)
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return fd
    }

    private static func boundPort(of fd: Int32) throws -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { throw POSIXError(.EBADF) }
        return UInt16(bigEndian: address.sin_port)
    }
}

extension NSCondition {
    fileprivate func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
