// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The team's scenarios document (docs/SCENARIOS.md §5): a live-search view model over
/// `URLSession`, talking to a server this demo starts on 127.0.0.1; and a login form of two
/// validated fields.
struct Repository: Decodable, Equatable {
    let name: String
    let stars: Int
}

struct SearchResponse: Decodable {
    let items: [Repository]
}

enum SearchError: Error {
    case invalidResponse
    case status(Int)
    case other(Error)
}

final class RepositorySearchViewModel: ObservableObject {
    @Published var inputText = ""
    @Published private(set) var repositories: [Repository] = []
    @Published private(set) var loading = false
    /// Reports network activity: `true` when a request starts, `false` when it ends or is cancelled.
    let networkActivity = PassthroughSubject<Bool, Never>()
    private var cancellables = Set<AnyCancellable>()

    init(searchURL: @escaping (String) -> URL, scheduler: RunLoop) {
        networkActivity
            .receive(on: scheduler)
            .assign(to: &$loading)

        $inputText
            .filter { !$0.isEmpty }
            .throttle(for: 0.5, scheduler: scheduler, latest: true)
            .removeDuplicates()
            .print("input", to: PrintOperatorLines())
            .map { [networkActivity] query in
                URLSession.shared.dataTaskPublisher(for: searchURL(query))
                    .handleEvents(
                        receiveCompletion: { _ in networkActivity.send(false) },
                        receiveCancel: { networkActivity.send(false) },
                        receiveRequest: { _ in networkActivity.send(true) }
                    )
                    .tryMap { data, response -> Data in
                        guard let http = response as? HTTPURLResponse else { throw SearchError.invalidResponse }
                        guard (200..<300).contains(http.statusCode) else { throw SearchError.status(http.statusCode) }
                        return data
                    }
                    .mapError { $0 as? SearchError ?? .other($0) }
                    .decode(type: SearchResponse.self, decoder: JSONDecoder())
                    .map(\.items)
                    .replaceError(with: [])
                    .eraseToAnyPublisher()
            }
            .switchToLatest()
            .receive(on: scheduler)
            .assign(to: \.repositories, on: self)
            .store(in: &cancellables)
    }

    /// Cancels the search pipeline (it holds the view model through `assign(to:on:)`).
    func stop() {
        cancellables.removeAll()
    }
}

/// A login form: the button is enabled while the e-mail looks like one and the password has
/// at least 8 characters.
final class LoginForm: ObservableObject {
    @Published var email = ""
    @Published var password = ""
    @Published private(set) var canLogIn = false
    var cancellables = Set<AnyCancellable>()

    init() {
        Publishers.CombineLatest($email.map { $0.contains("@") }, $password.map { $0.count >= 8 })
            .map { $0 && $1 }
            .removeDuplicates()
            .sink { [weak self] in self?.canLogIn = $0 }
            .store(in: &cancellables)
    }
}

func liveSearch() {
    func json(_ repositories: [(String, Int)]) -> Data {
        let items = repositories.map { #"{"name":"\#($0.0)","stars":\#($0.1)}"# }.joined(separator: ",")
        return Data(#"{"items":[\#(items)]}"#.utf8)
    }
    let server: LocalHTTPServer
    do {
        server = try LocalHTTPServer(routes: [
            "/search?q=sw": .init(status: 200, body: json([("swagger", 10)]), delay: .seconds(3)),
            "/search?q=swift": .init(status: 200, body: json([("swift", 66_000), ("swift-nio", 8_000)])),
            "/search?q=swiftui": .init(status: 500, body: Data()),
        ])
    } catch {
        print("  could not start the local server: \(error)")
        return
    }
    defer { server.stop() }

    let start = Date()
    func stamp() -> String { String(format: "t=%.1fs", Date().timeIntervalSince(start)) }
    let model = RepositorySearchViewModel(searchURL: { server.url("/search?q=\($0)") }, scheduler: .main)
    let watchers = [
        model.$repositories.dropFirst().sink { print("  [\(stamp())] repositories: \($0.map(\.name))") },
        model.$loading.dropFirst().removeDuplicates().sink { print("  [\(stamp())] loading: \($0)") },
    ]

    // Scripted typing on the main run loop: (seconds from start, text).
    let typing: [(Double, String)] = [(0.0, "sw"), (0.2, "swi"), (0.4, "swift"), (1.5, "swiftui")]
    for (seconds, text) in typing {
        RunLoop.main.run(until: start.addingTimeInterval(seconds))
        print("  [\(stamp())] type \"\(text)\"")
        model.inputText = text
    }
    RunLoop.main.run(until: start.addingTimeInterval(2.5))
    print("  the server saw: \(server.events.map(\.description).joined(separator: ", "))")
    model.stop()
    withExtendedLifetime(watchers) {}

    print("- login form:")
    let form = LoginForm()
    func show(_ change: String) { print("  \(change) -> canLogIn = \(form.canLogIn)") }
    form.email = "merlin@camelot.uk"
    show("email = merlin@camelot.uk")
    form.password = "abracadabra"
    show("password = abracadabra")
    form.password = "abc"
    show("password = abc")
    form.cancellables.removeAll()
    form.password = "abracadabra"
    show("after cancellables.removeAll(), password = abracadabra")
}

/// Where the live search's `print("input")` writes: each line of the operator's log indented
/// and labelled as such in the transcript.
struct PrintOperatorLines: TextOutputStream {
    mutating func write(_ string: String) {
        let line = string.hasSuffix("\n") ? String(string.dropLast()) : string
        guard !line.isEmpty else { return }
        Swift.print("  print operator: \(line)")
    }
}
