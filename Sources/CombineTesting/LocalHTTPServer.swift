// SPDX-License-Identifier: Apache-2.0
// Built where the C library has BSD sockets: the rest of CombineTesting builds everywhere
// (Windows and WASI have no `LocalHTTPServer`).
#if canImport(Glibc) || canImport(Musl) || canImport(Android) || canImport(Darwin)
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, for tests and demos of code that fetches over HTTP:
/// it listens on a port the system picks, answers each request from a fixed table of routes,
/// and records what happened to every connection.
///
/// ```swift
/// let server = try LocalHTTPServer(routes: [
///     "/user": .init(status: 200, body: Data(#"{"name":"Ada"}"#.utf8)),
///     "/slow": .init(status: 200, body: Data("late".utf8), delay: .seconds(5)),
/// ])
/// defer { server.stop() }
/// let cancellable = URLSession.shared.dataTaskPublisher(for: server.url("/user"))
///     .map(\.data)
///     .decode(type: User.self, decoder: JSONDecoder())
///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.name) })
/// server.wait(for: .responded("/user"))   // true once the answer was sent
/// ```
///
/// A request whose target (path and query, as sent) is not a route gets its path without the
/// query looked up, then a `404` with an empty body. Every response closes its connection.
/// A route with a delay answers only after it, and notices meanwhile when the client closes
/// the connection (a cancelled request): that connection is recorded as
/// ``Event/clientClosed(_:)`` and gets no answer.
///
/// Bounded: request heads larger than 64 KiB are refused, a client that sends nothing for ten
/// seconds is disconnected, and at most 32 connections are served at once (later ones are
/// closed at once). One thread accepts connections; each connection is served on its own
/// thread. All members are thread-safe.
public final class LocalHTTPServer: Sendable {
    /// What a route answers.
    public struct Response: Sendable, Equatable {
        /// The HTTP status code.
        public var status: Int
        /// The body.
        public var body: Data
        /// The value of the `Content-Type` header.
        public var contentType: String
        /// How long the server waits before answering.
        public var delay: Duration

        /// Creates a response.
        ///
        /// ```swift
        /// let notFound = LocalHTTPServer.Response(status: 404, body: Data("no such user".utf8))
        /// ```
        ///
        /// - Parameters:
        ///   - status: The HTTP status code. Defaults to `200`.
        ///   - body: The body. Defaults to none.
        ///   - contentType: The `Content-Type` header. Defaults to `application/json`.
        ///   - delay: How long to wait before answering. Defaults to no wait.
        public init(
            status: Int = 200, body: Data = Data(), contentType: String = "application/json", delay: Duration = .zero
        ) {
            self.status = status
            self.body = body
            self.contentType = contentType
            self.delay = delay
        }
    }

    /// Something that happened to one request, named by its target (path and query, as sent).
    public enum Event: Sendable, Equatable, CustomStringConvertible {
        /// The request head arrived.
        case received(String)
        /// The response was sent in full.
        case responded(String)
        /// The client closed the connection while the server waited to answer.
        case clientClosed(String)

        /// The event as a short phrase, such as `responded /user`.
        public var description: String {
            switch self {
            case .received(let target): "received \(target)"
            case .responded(let target): "responded \(target)"
            case .clientClosed(let target): "client closed \(target)"
            }
        }
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// The socket call that failed.
        public let operation: String
        /// The `errno` it left.
        public let code: Int32

        /// The failed call and the system's message for `code`.
        public var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
    }

    /// The port the server listens on, on 127.0.0.1.
    public let port: UInt16

    private let log = ServerLog()

    /// Starts a server that answers from `routes`.
    ///
    /// ```swift
    /// let server = try LocalHTTPServer(routes: ["/ping": .init(body: Data("pong".utf8))])
    /// ```
    ///
    /// - Parameter routes: The response for each request target, such as `/items` or
    ///   `/search?q=swift`.
    /// - Throws: ``StartError`` when no listening socket could be opened.
    public init(routes: [String: Response]) throws {
        let (listener, port) = try Responder.openListener()
        self.port = port
        let responder = Responder(routes: routes, listener: listener, log: log)
        // The thread holds the responder, not the server: dropping the server stops it.
        let thread = Thread { responder.acceptConnections() }
        thread.name = "LocalHTTPServer :\(port)"
        thread.start()
    }

    deinit {
        stop()
    }

    /// The URL of `path` on this server.
    ///
    /// ```swift
    /// server.url("/search?q=swift")   // http://127.0.0.1:<port>/search?q=swift
    /// ```
    ///
    /// - Parameter path: A path starting with `/`, with a query if wanted.
    /// - Returns: `http://127.0.0.1:<port>` followed by `path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Everything that happened so far, in order.
    public var events: [Event] { log.events }

    /// Waits until `event` has happened, at most `timeout`.
    ///
    /// ```swift
    /// #expect(server.wait(for: .clientClosed("/slow")))
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event to wait for.
    ///   - timeout: How long to wait at most. Defaults to ten seconds.
    /// - Returns: Whether the event happened (`false` when the time ran out first).
    @discardableResult
    public func wait(for event: Event, timeout: Duration = .seconds(10)) -> Bool {
        log.wait(timeout: timeout) { $0.contains(event) }
    }

    /// Stops accepting connections and closes the listening socket; a connection waiting out
    /// a route's delay is closed without an answer. Waits (at most ten seconds) until the socket is
    /// closed. Calling it again does nothing.
    ///
    /// ```swift
    /// server.stop()
    /// ```
    public func stop() {
        log.stop()
        log.waitUntilListenerClosed(timeout: .seconds(10))
    }
}

/// Accepts connections and answers them, on threads of its own; the server holds it, and so
/// does its accepting thread.
private final class Responder: Sendable {
    typealias Response = LocalHTTPServer.Response

    private let routes: [String: Response]
    private let listener: Int32
    private let log: ServerLog

    /// At most this many connections are served at once.
    private static let connectionLimit = 32
    /// A request head larger than this is refused.
    private static let headLimit = 64 * 1024

    init(routes: [String: Response], listener: Int32, log: ServerLog) {
        self.routes = routes
        self.listener = listener
        self.log = log
    }

    static func openListener() throws -> (Int32, UInt16) {
        #if canImport(Glibc)
        // Glibc imports the socket types as an enum; musl, Bionic and Darwin as integers.
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LocalHTTPServer.StartError(operation: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound, listen(descriptor, 16) == 0 else {
            let error = LocalHTTPServer.StartError(operation: bound ? "listen" : "bind", code: errno)
            close(descriptor)
            throw error
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    func acceptConnections() {
        defer {
            close(listener)
            log.listenerClosed()
        }
        while !log.isStopped {
            guard Self.waitReadable(listener, milliseconds: 50) else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            guard log.admit(limit: Self.connectionLimit) else {
                close(connection)
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
                log.connectionEnded()
            }
            thread.start()
        }
    }

    // MARK: Serving one connection

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let target = readRequestTarget(connection) else { return }
        log.record(.received(target))
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        let response = routes[target] ?? routes[path] ?? Response(status: 404, body: Data(), contentType: "text/plain")
        if response.delay > .zero {
            switch waitOrNoticeClose(connection, for: response.delay) {
            case .elapsed: break
            case .clientClosed:
                log.record(.clientClosed(target))
                return
            case .serverStopped: return
            }
        }
        if write(response, to: connection) { log.record(.responded(target)) }
    }

    /// Reads the request head and returns the target of its request line (`GET /a?b HTTP/1.1`
    /// gives `/a?b`), or `nil` if the client sent no complete, well-formed head.
    private func readRequestTarget(_ connection: Int32) -> String? {
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while head.firstRange(of: terminator) == nil {
            guard head.count < Self.headLimit else { return nil }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            head += buffer[..<count]
        }
        let requestLine = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
        return String(parts[1])
    }

    private enum Wait {
        case elapsed, clientClosed, serverStopped
    }

    /// Waits `delay`, watching the connection: the client closing it, or the server
    /// stopping, ends the wait early.
    private func waitOrNoticeClose(_ connection: Int32, for delay: Duration) -> Wait {
        let clock = ContinuousClock()
        let deadline = clock.now + delay
        var scratch = [UInt8](repeating: 0, count: 512)
        while clock.now < deadline {
            if log.isStopped { return .serverStopped }
            let remaining = deadline - clock.now
            let slice = min(remaining, .milliseconds(50))
            let milliseconds = Int32(
                slice.components.seconds * 1000 + slice.components.attoseconds / 1_000_000_000_000_000)
            guard Self.waitReadable(connection, milliseconds: max(milliseconds, 1)) else { continue }
            // Readable with nothing to read (or an error) means the client has gone; extra
            // bytes after the head are read and ignored.
            if recv(connection, &scratch, scratch.count, 0) <= 0 { return .clientClosed }
        }
        return .elapsed
    }

    /// Writes the whole response; returns whether it was all sent.
    private func write(_ response: Response, to connection: Int32) -> Bool {
        let head =
            "HTTP/1.1 \(response.status) \(Self.reason(for: response.status))\r\n"
            + "Content-Type: \(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\n"
            + "Connection: close\r\n\r\n"
        var bytes = Array(head.utf8) + response.body
        var sent = 0
        while sent < bytes.count {
            #if canImport(Darwin)
            let flags: Int32 = 0
            #else
            let flags = Int32(MSG_NOSIGNAL)
            #endif
            let count = bytes.withUnsafeMutableBytes {
                send(connection, $0.baseAddress! + sent, $0.count - sent, flags)
            }
            guard count > 0 else { return false }
            sent += count
        }
        shutdown(connection, Int32(SHUT_WR))
        return true
    }

    private static func reason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }

    /// Whether `descriptor` becomes readable (or closed) within `milliseconds`.
    private static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }
}

/// The server's mutable state: the events, whether it was stopped, the connections being
/// served.
///
/// `@unchecked Sendable`: every stored property is read and written with `condition` locked;
/// waiters wait on it for a change.
private final class ServerLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var recorded: [LocalHTTPServer.Event] = []
    private var stopped = false
    private var listening = true
    private var connections = 0

    private func locked<R>(_ body: () -> R) -> R {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }

    var events: [LocalHTTPServer.Event] { locked { recorded } }

    var isStopped: Bool { locked { stopped } }

    func record(_ event: LocalHTTPServer.Event) {
        locked { recorded.append(event) }
    }

    func stop() {
        locked { stopped = true }
    }

    func listenerClosed() {
        locked { listening = false }
    }

    /// Counts a new connection unless `limit` are being served already.
    func admit(limit: Int) -> Bool {
        locked {
            guard connections < limit else { return false }
            connections += 1
            return true
        }
    }

    func connectionEnded() {
        locked { connections -= 1 }
    }

    /// Waits until `isSatisfied` holds for the events, at most `timeout`.
    func wait(timeout: Duration, until isSatisfied: ([LocalHTTPServer.Event]) -> Bool) -> Bool {
        waitUntil(timeout: timeout) { isSatisfied(recorded) }
    }

    func waitUntilListenerClosed(timeout: Duration) {
        _ = waitUntil(timeout: timeout) { !listening }
    }

    private func waitUntil(timeout: Duration, _ isSatisfied: () -> Bool) -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !isSatisfied() {
            guard condition.wait(until: deadline) else { return isSatisfied() }
        }
        return true
    }
}
#endif
