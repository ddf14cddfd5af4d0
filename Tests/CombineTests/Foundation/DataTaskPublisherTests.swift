// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSession.DataTaskPublisher` against a real HTTP server on 127.0.0.1 that each test
/// starts on a port of its own. Waits are for events (a completion, something the server
/// saw), each bounded by a generous timeout; nothing depends on how long anything takes.
///
/// The suite runs its tests one at a time: each blocks a thread while it waits, and with the
/// whole test run sharing two cores, several blocked at once slow down the threads that
/// deliver URLSession's results.
@Suite("URLSession.DataTaskPublisher", .serialized)
struct DataTaskPublisherTests {
    /// How long a test waits for something that takes milliseconds when the machine is idle;
    /// generous, because the rest of the test run shares the machine.
    private static let networkTimeout = Duration.seconds(30)

    private struct User: Codable, Equatable {
        let id: Int
        let name: String
    }

    private typealias Output = URLSession.DataTaskPublisher.Output

    /// A test subscriber that signals when its completion arrives.
    private final class Completing<Input>: Sendable {
        let subscriber: TestSubscriber<Input, URLError>
        private let completed = DispatchSemaphore(value: 0)

        init(initialDemand: Subscribers.Demand = .unlimited) {
            let completed = completed
            subscriber = TestSubscriber(initialDemand: initialDemand, onCompletion: { _ in completed.signal() })
        }

        /// Waits, at most ``networkTimeout``, for the completion.
        func waitForCompletion() -> Bool {
            completed.wait(timeout: .now() + .seconds(Int(DataTaskPublisherTests.networkTimeout.components.seconds)))
                == .success
        }
    }

    /// Starts a server with `routes`, and a session of the test's own to fetch from it; the
    /// test hands both to ``close(_:_:)`` when done.
    private static func serve(_ routes: [String: LocalHTTPServer.Response]) throws -> (LocalHTTPServer, URLSession) {
        (try LocalHTTPServer(routes: routes), session())
    }

    private static func close(_ server: LocalHTTPServer, _ session: URLSession) {
        session.finishTasksAndInvalidate()
        server.stop()
    }

    private static func session() -> URLSession {
        URLSession(configuration: .ephemeral)
    }

    private static func status(_ output: Output) -> Int? {
        (output.response as? HTTPURLResponse)?.statusCode
    }

    // MARK: Values

    @Test func aJSONBodyDecodes() async throws {
        try await offThePool {
            let (server, session) = try Self.serve([
                "/user": .init(body: Data(#"{"id": 7, "name": "Ada"}"#.utf8))
            ])
            defer { Self.close(server, session) }
            let result = Completing<User>()
            session.dataTaskPublisher(for: server.url("/user"))
                .map(\.data)
                .decode(type: User.self, decoder: JSONDecoder())
                .mapError { $0 as? URLError ?? URLError(.cannotDecodeContentData) }
                .subscribe(result.subscriber)
            #expect(result.waitForCompletion())
            #expect(result.subscriber.values == [User(id: 7, name: "Ada")])
            #expect(result.subscriber.completion == .finished)
            #expect(result.subscriber.violations.isEmpty)
        }
    }

    @Test(arguments: [404, 500])
    func anHTTPErrorStatusIsAValueNotAFailure(status: Int) async throws {
        try await offThePool {
            let (server, session) = try Self.serve([
                "/item": .init(status: status, body: Data("no luck".utf8), contentType: "text/plain")
            ])
            defer { Self.close(server, session) }
            let result = Completing<Output>()
            session.dataTaskPublisher(for: URLRequest(url: server.url("/item"))).subscribe(result.subscriber)
            #expect(result.waitForCompletion())
            let output = try #require(result.subscriber.values.first)
            #expect(result.subscriber.values.count == 1)
            #expect(Self.status(output) == status)
            #expect(String(decoding: output.data, as: UTF8.self) == "no luck")
            #expect(output.response.url == server.url("/item"))
            #expect(result.subscriber.completion == .finished)
        }
    }

    @Test func anUnknownPathIsA404WithAnEmptyBody() async throws {
        try await offThePool {
            let (server, session) = try Self.serve([:])
            defer { Self.close(server, session) }
            let result = Completing<Output>()
            session.dataTaskPublisher(for: server.url("/nowhere")).subscribe(result.subscriber)
            #expect(result.waitForCompletion())
            #expect(result.subscriber.values.map(Self.status) == [404])
            #expect(result.subscriber.values.first?.data.isEmpty == true)
        }
    }

    // MARK: Failure

    @Test func aRefusedConnectionFailsWithAURLError() throws {
        // A server that has stopped leaves its port with nothing listening.
        let stopped = try LocalHTTPServer(routes: [:])
        let url = stopped.url("/anything")
        stopped.stop()
        let session = Self.session()
        defer { session.finishTasksAndInvalidate() }
        let result = Completing<Output>()
        session.dataTaskPublisher(for: url).subscribe(result.subscriber)
        #expect(result.waitForCompletion())
        #expect(result.subscriber.values.isEmpty)
        guard case .failure(let error) = result.subscriber.completion else {
            Issue.record("expected a failure, got \(String(describing: result.subscriber.completion))")
            return
        }
        #expect(error.code == .cannotConnectToHost)
    }

    // MARK: Demand

    @Test func noRequestIsMadeBeforeDemandAndOneAfter() async throws {
        try await offThePool {
            let (server, session) = try Self.serve([
                "/data": .init(body: Data("payload".utf8)),
                "/probe": .init(),
            ])
            defer { Self.close(server, session) }
            let waiting = Completing<Output>(initialDemand: .none)
            session.dataTaskPublisher(for: server.url("/data")).subscribe(waiting.subscriber)

            // A request made after subscribing, on the same session, is answered while the
            // subscriber without demand still has not caused one.
            let probe = Completing<Output>()
            session.dataTaskPublisher(for: server.url("/probe")).subscribe(probe.subscriber)
            #expect(probe.waitForCompletion())
            #expect(server.wait(for: .responded("/probe"), timeout: Self.networkTimeout))
            #expect(server.events == [.received("/probe"), .responded("/probe")])
            #expect(waiting.subscriber.events.count == 1)

            waiting.subscriber.request(.max(1))
            waiting.subscriber.request(.max(1))
            #expect(waiting.waitForCompletion())
            #expect(waiting.subscriber.values.map { String(decoding: $0.data, as: UTF8.self) } == ["payload"])
            #expect(server.events.filter { $0 == .received("/data") }.count == 1)
            #expect(waiting.subscriber.violations.isEmpty)
        }
    }

    @Test func eachSubscriptionMakesItsOwnRequest() async throws {
        try await offThePool {
            let (server, session) = try Self.serve(["/count": .init()])
            defer { Self.close(server, session) }
            let publisher = session.dataTaskPublisher(for: server.url("/count"))
            let first = Completing<Output>()
            let second = Completing<Output>()
            publisher.subscribe(first.subscriber)
            publisher.subscribe(second.subscriber)
            #expect(first.waitForCompletion())
            #expect(second.waitForCompletion())
            #expect(server.events.filter { $0 == .received("/count") }.count == 2)
        }
    }

    // MARK: Cancellation

    @Test func cancellingCancelsTheTaskAndDeliversNothing() async throws {
        try await offThePool {
            let (server, session) = try Self.serve(["/slow": .init(body: Data("late".utf8), delay: .seconds(20))])
            defer { Self.close(server, session) }
            let subscriber = TestSubscriber<Output, URLError>()
            session.dataTaskPublisher(for: server.url("/slow")).subscribe(subscriber)
            #expect(server.wait(for: .received("/slow"), timeout: Self.networkTimeout))
            subscriber.cancel()
            #expect(server.wait(for: .clientClosed("/slow"), timeout: Self.networkTimeout))
            #expect(subscriber.events.count == 1)
        }
    }

    /// Two requests and a cancel from three threads at once, against a response that comes
    /// back at once: the cancel can reach the task while its result is being handed over.
    /// FoundationNetworking on Linux traps ("a task that in not in the registry") when a
    /// cancel's own report of the cancellation runs after the finished task has left the
    /// session; the subscription keeps its cancel ahead of that (see
    /// `DataTaskSubscription.complete`). Each round ends with a value and `.finished`, or with
    /// nothing after the cancel.
    @Test func aCancelRacingTheResponseAndTwoRequestsNeitherTrapsNorBreaksTheContract() async throws {
        try await offThePool {
            let (server, session) = try Self.serve(["/fast": .init(body: Data("fast".utf8))])
            defer { Self.close(server, session) }
            let publisher = session.dataTaskPublisher(for: server.url("/fast"))
            let rounds = runningUnderSanitizer ? 100 : 400
            var subscribers: [TestSubscriber<Output, URLError>] = []
            for round in 0..<rounds {
                let subscriber = TestSubscriber<Output, URLError>(initialDemand: .none)
                subscribers.append(subscriber)
                publisher.subscribe(subscriber)
                // The cancel comes later and later, from at once to a few milliseconds after the
                // requests, so that some rounds meet the response on its way in.
                let delay = Duration.microseconds(round % 40 * 100)
                runOverlapping(threads: 3) { index in
                    if index < 2 {
                        subscriber.request(.max(1))
                    } else {
                        let until = ContinuousClock.now + delay
                        while ContinuousClock.now < until {}
                        subscriber.cancel()
                    }
                }
                session.delegateQueue.waitUntilAllOperationsAreFinished()
            }
            // The session's delegate queue runs one operation at a time, in order: once a last
            // request's result has come and gone, every round's result has too.
            let last = Completing<Output>()
            publisher.subscribe(last.subscriber)
            #expect(last.waitForCompletion())
            session.delegateQueue.waitUntilAllOperationsAreFinished()
            for subscriber in subscribers {
                #expect(subscriber.violations.isEmpty)
                // Either the cancel came first and nothing arrived, or the response did and all of it.
                #expect(subscriber.completion == nil || subscriber.completion == .finished)
                #expect(subscriber.values.count == (subscriber.completion == nil ? 0 : 1))
            }
        }
    }

    @Test func switchToLatestCancelsASlowSearchWhenANewerQueryArrives() async throws {
        try await offThePool {
            let (server, session) = try Self.serve([
                "/search?q=sw": .init(body: Data(#"["swallow"]"#.utf8), delay: .seconds(20)),
                "/search?q=swift": .init(body: Data(#"["swift", "swiftly"]"#.utf8)),
            ])
            defer { Self.close(server, session) }
            let queries = PassthroughSubject<String, URLError>()
            let result = Completing<[String]>()
            queries
                .map { query in
                    session.dataTaskPublisher(for: server.url("/search?q=\(query)"))
                        .map { (try? JSONDecoder().decode([String].self, from: $0.data)) ?? [] }
                }
                .switchToLatest()
                .subscribe(result.subscriber)

            queries.send("sw")
            #expect(server.wait(for: .received("/search?q=sw"), timeout: Self.networkTimeout))
            queries.send("swift")
            queries.send(completion: .finished)
            #expect(result.waitForCompletion())
            // The server saw the slow request's connection closed before it could answer.
            #expect(server.wait(for: .clientClosed("/search?q=sw"), timeout: Self.networkTimeout))
            #expect(!server.events.contains(.responded("/search?q=sw")))
            #expect(result.subscriber.values == [["swift", "swiftly"]])
            #expect(result.subscriber.completion == .finished)
            #expect(result.subscriber.violations.isEmpty)
        }
    }

    // MARK: Release

    @Test func theSubscriberIsReleasedOnceTheTaskCompletes() async throws {
        try await offThePool {
            let (server, session) = try Self.serve(["/ok": .init()])
            defer { Self.close(server, session) }
            weak var weakSubscriber: TestSubscriber<Output, URLError>?
            let subscription: Subscription? = try {
                let result = Completing<Output>()
                weakSubscriber = result.subscriber
                session.dataTaskPublisher(for: server.url("/ok")).subscribe(result.subscriber)
                try #require(result.waitForCompletion())
                return result.subscriber.subscription
            }()
            // The completion is signalled from inside the subscriber's callback, on the session's
            // delegate queue; the subscription lets go of the subscriber when that call returns.
            session.delegateQueue.waitUntilAllOperationsAreFinished()
            #expect(subscription != nil)
            #expect(weakSubscriber == nil)
        }
    }

    // MARK: The publisher

    @Test func thePublisherKeepsItsRequestAndSession() {
        let session = Self.session()
        defer { session.finishTasksAndInvalidate() }
        let url = URL(string: "http://127.0.0.1:1/path")!
        let fromURL = session.dataTaskPublisher(for: url)
        #expect(fromURL.request.url == url)
        #expect(fromURL.session === session)
        var request = URLRequest(url: url)
        request.httpMethod = "HEAD"
        let direct = URLSession.DataTaskPublisher(request: request, session: session)
        #expect(direct.request.httpMethod == "HEAD")
        #expect(direct.session === session)
    }

    @Test func requestingZeroTraps() async {
        await runningExitTest {
            await #expect(processExitsWith: .failure) {
                let session = URLSession(configuration: .ephemeral)
                let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: .none)
                session.dataTaskPublisher(for: URL(string: "http://127.0.0.1:1/")!).subscribe(subscriber)
                subscriber.request(.none)
            }
        }
    }
}
