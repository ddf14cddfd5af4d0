// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation

/// The team's scenarios document (docs/SCENARIOS.md §3), the sign-up form. The model is written
/// against a scheduler, so the same code runs on `RunLoop.main` in an app and here on
/// `RunLoop.test`, a virtual-time stand-in that scripted typing drives: the transcript is
/// exact. The username is checked with the "server" only after half a second without
/// typing; the password pair must match, be longer than 8 and not be "password1"; the
/// button follows both.
final class SignupForm<S: Scheduler>: ObservableObject {
    @Published var username = ""
    @Published var password = ""
    @Published var passwordAgain = ""
    private let scheduler: S
    private let takenNames: Set<String>
    private let log: (String) -> Void

    init(scheduler: S, takenNames: Set<String>, log: @escaping (String) -> Void) {
        self.scheduler = scheduler
        self.takenNames = takenNames
        self.log = log
    }

    /// The server call: answers a tenth of a second later, on the scheduler.
    func usernameAvailable(_ name: String, completion: @escaping (Bool) -> Void) {
        log("checking \"\(name)\" with the server")
        let available = !name.isEmpty && !takenNames.contains(name)
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(100))) {
            self.log("server: \"\(name)\" is \(available ? "available" : "taken")")
            completion(available)
        }
    }

    var validatedPassword: AnyPublisher<String?, Never> {
        Publishers.CombineLatest($password, $passwordAgain)
            .map { password, passwordAgain -> String? in
                guard password == passwordAgain, password.count > 8 else { return nil }
                return password
            }
            .map { $0 == "password1" ? nil : $0 }
            .eraseToAnyPublisher()
    }

    var validatedUsername: AnyPublisher<String?, Never> {
        $username
            .debounce(for: .milliseconds(500), scheduler: scheduler)
            .removeDuplicates()
            .flatMap { username in
                Future { promise in
                    self.usernameAvailable(username) { available in
                        promise(.success(available ? username : nil))
                    }
                }
            }
            .eraseToAnyPublisher()
    }

    var validatedCredentials: AnyPublisher<(String, String)?, Never> {
        Publishers.CombineLatest(validatedUsername, validatedPassword)
            .map { username, password -> (String, String)? in
                guard let username, let password else { return nil }
                return (username, password)
            }
            .eraseToAnyPublisher()
    }
}

/// A stand-in for a `UIButton`: it reports changes of `isEnabled`.
final class SignupButton {
    var onChange: (Bool) -> Void = { _ in }
    var isEnabled = false {
        didSet { if isEnabled != oldValue { onChange(isEnabled) } }
    }
}

/// Virtual time as "t=1.2s" from a start instant.
private func elapsed<S: Scheduler>(_ scheduler: S, since start: S.SchedulerTimeType) -> String
where S.SchedulerTimeType == RunLoop.SchedulerTimeType {
    String(format: "t=%.1fs", start.distance(to: scheduler.now).timeInterval)
}

func wizardSchoolSignup() {
    let runLoop = RunLoop.test
    let start = runLoop.now
    let log = { (line: String) in print("  [\(elapsed(runLoop, since: start))] \(line)") }
    let form = SignupForm(scheduler: runLoop, takenNames: ["merlin"], log: log)
    let signupButton = SignupButton()
    signupButton.onChange = { log("signup button \($0 ? "ENABLED" : "disabled")") }

    let signupButtonStream = form.validatedCredentials
        .map { $0 != nil }
        .receive(on: runLoop)
        .assign(to: \.isEnabled, on: signupButton)

    // Scripted typing: seconds from the start, the field, the new text.
    let script: [(Double, ReferenceWritableKeyPath<SignupForm<TestSchedulerOf<RunLoop>>, String>, String)] = [
        (0.0, \.username, "m"),
        (0.2, \.username, "me"),
        (0.4, \.username, "merlin"),  // a pause follows: checked, taken
        (1.5, \.username, "merlin2"),
        (1.7, \.username, "merlin"),  // changed back within 0.5s: never checked again
        (1.9, \.username, "morgana"),  // a pause follows: checked, available
        (3.0, \.password, "password1"),
        (3.1, \.passwordAgain, "password1"),  // they match, but it is refused
        (3.5, \.password, "abracadabra"),
        (3.6, \.passwordAgain, "abracadabra"),  // accepted: the button turns on
        (4.0, \.passwordAgain, "abracadabr"),  // no longer matches: off
    ]
    let names: [PartialKeyPath<SignupForm<TestSchedulerOf<RunLoop>>>: String] = [
        \.username: "username", \.password: "password", \.passwordAgain: "passwordAgain",
    ]
    for (seconds, field, text) in script {
        runLoop.advance(to: start.advanced(by: .seconds(seconds)))
        log("\(names[field] ?? "?") = \"\(text)\"")
        form[keyPath: field] = text
    }
    runLoop.advance(by: .seconds(2))
    print("  signup button enabled at the end: \(signupButton.isEnabled)")
    signupButtonStream.cancel()
}

/// The team's scenarios document (docs/SCENARIOS.md §5), the search field's input: the same
/// scripted typing through `throttle(latest: true)`, `throttle(latest: false)` and
/// `debounce`, on the virtual-time `DispatchQueue.test`, to show what each lets through.
func searchInputThrottle() {
    let script: [(ms: Int, text: String)] = [
        (0, "s"), (150, "sw"), (300, "swi"), (450, "swif"), (600, "swift"),
        (1_700, "swift c"), (1_800, "swift co"), (1_900, "swift com"), (2_000, "swift comb"),
        (2_100, "swift combi"), (2_200, "swift combin"), (2_300, "swift combine"),
    ]
    print("  typed:")
    for (ms, text) in script { print("    \(String(format: "%5d", ms))ms  \"\(text)\"") }

    func run<P: Publisher>(
        _ name: String, _ makePipeline: (PassthroughSubject<String, Never>, TestSchedulerOf<DispatchQueue>) -> P
    )
    where P.Output == String, P.Failure == Never {
        let queue = DispatchQueue.test
        let start = queue.now
        let inputText = PassthroughSubject<String, Never>()
        var received: [String] = []
        let cancellable = makePipeline(inputText, queue).sink { text in
            let ms = start.distance(to: queue.now).magnitude / 1_000_000
            received.append("\(ms)ms \"\(text)\"")
        }
        for (ms, text) in script {
            queue.advance(to: start.advanced(by: .milliseconds(ms)))
            inputText.send(text)
        }
        queue.advance(by: .seconds(2))
        print("  \(name):")
        for line in received { print("    \(line)") }
        cancellable.cancel()
    }

    run("throttle(for: 1.0, scheduler: queue, latest: true).removeDuplicates()") { input, queue in
        input.throttle(for: 1.0, scheduler: queue, latest: true).removeDuplicates()
    }
    run("throttle(for: 1.0, scheduler: queue, latest: false)") { input, queue in
        input.throttle(for: 1.0, scheduler: queue, latest: false)
    }
    run("debounce(for: 0.5, scheduler: queue)") { input, queue in
        input.debounce(for: 0.5, scheduler: queue)
    }
}
