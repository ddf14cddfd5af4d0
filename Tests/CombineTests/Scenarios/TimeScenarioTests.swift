// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

/// The team's scenarios document (docs/SCENARIOS.md §3 and the throttle part of §5), on virtual
/// time.
@Suite("Scenarios §3 and §5: time")
struct TimeScenarioTests {
    final class Button {
        var isEnabled = false
    }

    final class SignupForm: ObservableObject {
        @Published var username = ""
        @Published var password = ""
        @Published var passwordAgain = ""
    }

    /// §3: the username is checked only after half a second without typing, duplicates are
    /// not checked twice, and the button follows the validated username and password pair.
    @Test func wizardSchoolSignup() {
        let runLoop = RunLoop.test
        let start = runLoop.now
        let form = SignupForm()
        let checked = LockedValue<[String]>([])

        func usernameAvailable(_ name: String, completion: @escaping (Bool) -> Void) {
            checked.withLock { $0.append(name) }
            runLoop.schedule(after: runLoop.now.advanced(by: 0.1)) { completion(name != "merlin") }
        }

        let validatedPassword = Publishers.CombineLatest(form.$password, form.$passwordAgain)
            .map { password, again -> String? in password == again && password.count > 8 ? password : nil }
            .map { $0 == "password1" ? nil : $0 }
            .eraseToAnyPublisher()
        let validatedUsername =
            form.$username
            .debounce(for: 0.5, scheduler: runLoop)
            .removeDuplicates()
            .flatMap { name in
                Future { promise in usernameAvailable(name) { promise(.success($0 ? name : nil)) } }
            }
            .eraseToAnyPublisher()
        let validatedCredentials = Publishers.CombineLatest(validatedUsername, validatedPassword)
            .map { username, password -> (String, String)? in
                guard let username, let password else { return nil }
                return (username, password)
            }
            .eraseToAnyPublisher()
        let button = Button()
        let buttonStream =
            validatedCredentials
            .map { $0 != nil }
            .receive(on: runLoop)
            .assign(to: \.isEnabled, on: button)

        func type(_ field: ReferenceWritableKeyPath<SignupForm, String>, _ text: String, at seconds: Double) {
            runLoop.advance(to: start.advanced(by: .seconds(seconds)))
            form[keyPath: field] = text
        }
        type(\.username, "me", at: 0.0)
        type(\.username, "merlin", at: 0.2)
        runLoop.advance(by: 0.49)
        #expect(checked.withLock { $0 }.isEmpty, "nothing is checked while typing goes on")
        runLoop.advance(by: 0.01)
        #expect(checked.withLock { $0 } == ["merlin"])
        type(\.username, "morgana", at: 2.0)
        type(\.username, "morgana", at: 2.2)
        type(\.password, "abracadabra", at: 3.0)
        type(\.passwordAgain, "abracadabra", at: 3.1)
        #expect(checked.withLock { $0 } == ["merlin", "morgana"], "a repeated name is checked once")
        #expect(!button.isEnabled, "receive(on:) delivers on the run loop's next turn")
        runLoop.advance()
        #expect(button.isEnabled)
        type(\.passwordAgain, "abracadabr", at: 4.0)
        runLoop.advance()
        #expect(!button.isEnabled)
        type(\.password, "password1", at: 5.0)
        type(\.passwordAgain, "password1", at: 5.1)
        runLoop.advance()
        #expect(!button.isEnabled, "password1 is refused even when both match")
        buttonStream.cancel()
    }

    /// §5: typing through `throttle(for: 1.0, latest: true)` lets the first keystroke through at
    /// once and then the latest text once a second; `debounce` only what precedes a pause.
    @Test func searchInputThrottleAndDebounce() {
        let typing: [(ms: Int, text: String)] = [
            (0, "s"), (300, "sw"), (600, "swi"), (900, "swif"), (1_200, "swift"), (3_000, "swift c"),
        ]
        func run<P: Publisher<String, Never>>(
            _ pipeline: (PassthroughSubject<String, Never>, TestSchedulerOf<DispatchQueue>) -> P
        ) -> [String] {
            let queue = DispatchQueue.test
            let start = queue.now
            let input = PassthroughSubject<String, Never>()
            var received: [String] = []
            let cancellable = pipeline(input, queue).sink {
                received.append("\(start.distance(to: queue.now).magnitude / 1_000_000):\($0)")
            }
            for (ms, text) in typing {
                queue.advance(to: start.advanced(by: .milliseconds(ms)))
                input.send(text)
            }
            queue.advance(by: 5)
            cancellable.cancel()
            return received
        }
        #expect(
            run { $0.throttle(for: 1.0, scheduler: $1, latest: true) }
                == ["0:s", "1000:swif", "2000:swift", "3000:swift c"])
        #expect(
            run { $0.throttle(for: 1.0, scheduler: $1, latest: false) }
                == ["0:s", "1000:sw", "2000:swift", "3000:swift c"])
        #expect(run { $0.debounce(for: 0.5, scheduler: $1) } == ["1700:swift", "3500:swift c"])
    }
}
