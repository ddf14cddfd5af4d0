// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The team's scenarios document (docs/SCENARIOS.md §5), the live search, as a test:
/// `@Published` input, `throttle`, a `URLSession` request per query against a local server,
/// `switchToLatest` cancelling the request in flight, `tryMap` on the status,
/// `replaceError`, `receive(on:)`, and a `PassthroughSubject` reporting network activity.
/// Throttling and delivery run on a virtual-time `RunLoop.test`; the network is real
/// (127.0.0.1).
@Suite("Scenarios §5: live search", .serialized)
struct LiveSearchScenarioTests {
    final class SearchModel: ObservableObject {
        @Published var inputText = ""
        @Published var names: [String] = []
    }

    private struct Response: Decodable {
        struct Item: Decodable { let name: String }
        let items: [Item]
    }

    private struct BadStatus: Error {}

    @Test func aNewQueryCancelsTheRequestInFlightAndErrorsBecomeEmptyResults() async throws {
        try await offThePool {
            let server = try LocalHTTPServer(routes: [
                "/search?q=sw": .init(
                    status: 200, body: Data(#"{"items":[{"name":"slow"}]}"#.utf8), delay: .seconds(20)),
                "/search?q=swift": .init(status: 200, body: Data(#"{"items":[{"name":"swift"},{"name":"nio"}]}"#.utf8)),
                "/search?q=swiftui": .init(status: 500, body: Data()),
            ])
            let session = URLSession(configuration: .ephemeral)
            defer {
                session.finishTasksAndInvalidate()
                server.stop()
            }
            let runLoop = RunLoop.test
            let model = SearchModel()
            let activity = PassthroughSubject<Bool, Never>()
            let activityLog = LockedValue<[Bool]>([])
            let activityWatch = activity.sink { value in activityLog.withLock { $0.append(value) } }

            let search = model.$inputText
                .filter { !$0.isEmpty }
                .throttle(for: 0.5, scheduler: runLoop, latest: true)
                .removeDuplicates()
                .map { query in
                    session.dataTaskPublisher(for: server.url("/search?q=\(query)"))
                        .handleEvents(
                            receiveCompletion: { _ in activity.send(false) },
                            receiveCancel: { activity.send(false) },
                            receiveRequest: { _ in activity.send(true) }
                        )
                        .tryMap { data, response -> Data in
                            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BadStatus() }
                            return data
                        }
                        .decode(type: Response.self, decoder: JSONDecoder())
                        .map { $0.items.map(\.name) }
                        .replaceError(with: [])
                }
                .switchToLatest()
                .receive(on: runLoop)
                .assign(to: \.names, on: model)

            /// Advances virtual time until `condition` holds, waiting for the network in between.
            func advance(until condition: () -> Bool) -> Bool {
                for _ in 0..<3_000 {
                    runLoop.advance()
                    if condition() { return true }
                    usleep(10_000)
                }
                return false
            }

            model.inputText = "sw"
            runLoop.advance()  // the first query goes out at once
            #expect(server.wait(for: .received("/search?q=sw")))
            runLoop.advance(by: 0.2)
            model.inputText = "swift"
            runLoop.advance(by: 0.3)  // the throttle interval ends: "swift" replaces "sw"
            #expect(server.wait(for: .clientClosed("/search?q=sw")), "switchToLatest cancelled the slow request")
            #expect(advance(until: { model.names == ["swift", "nio"] }))

            runLoop.advance(by: 1)
            model.inputText = "swiftui"
            runLoop.advance()
            #expect(server.wait(for: .responded("/search?q=swiftui")))
            #expect(advance(until: { model.names.isEmpty }), "a 500 becomes an empty result")
            #expect(!server.events.contains(.responded("/search?q=sw")))
            #expect(activityLog.withLock { $0 } == [true, false, true, false, true, false])
            search.cancel()
            activityWatch.cancel()
        }
    }
}
