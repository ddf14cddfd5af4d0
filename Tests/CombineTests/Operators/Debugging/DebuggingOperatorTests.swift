// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

private struct Failure: Error, Equatable, CustomStringConvertible {
    let code: Int
    var description: String { "Failure(\(code))" }
}

private final class Lines: TextOutputStream, @unchecked Sendable {
    var text = ""
    func write(_ string: String) { text += string }
}

@Suite("print, handleEvents, breakpoint")
struct DebuggingOperatorTests {
    @Test func printWritesCombinesLines() {
        let lines = Lines()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
        [1, 2].publisher.print("numbers", to: lines).subscribe(subscriber)
        #expect(
            lines.text == """
                numbers: receive subscription: ([1, 2])
                numbers: request max: (1)
                numbers: receive value: (1)
                numbers: request max: (1) (synchronous)
                numbers: receive value: (2)
                numbers: request max: (1) (synchronous)
                numbers: receive finished

                """)
    }

    /// Apple's print logs the demand a value returns only when it asks for more: a returned
    /// `.none` writes no `request` line (recorded from Apple's framework by suites run against
    /// it).
    @Test func printLogsNoRequestLineForAReturnedNone() {
        let lines = Lines()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3), onValue: { $0 == 2 ? .max(2) : .none })
        [1, 2, 3].publisher.print("n", to: lines).subscribe(subscriber)
        #expect(
            lines.text == """
                n: receive subscription: ([1, 2, 3])
                n: request max: (3)
                n: receive value: (1)
                n: receive value: (2)
                n: request max: (2) (synchronous)
                n: receive value: (3)
                n: receive finished

                """)
    }

    @Test func printWithoutPrefixLogsErrorsAndCancel() {
        let lines = Lines()
        let upstream = PassthroughSubject<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        upstream.print(to: lines).subscribe(subscriber)
        subscriber.cancel()
        let failing = Lines()
        _ = Fail<Int, Failure>(error: Failure(code: 1)).print(to: failing).sink(
            receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(lines.text == "receive subscription: (PassthroughSubject)\nrequest unlimited\nreceive cancel\n")
        #expect(failing.text == "receive subscription: (Empty)\nrequest unlimited\nreceive error: (Failure(1))\n")
    }

    @Test func handleEventsCallsEachClosureBeforeTheEventGoesOn() {
        var log: [String] = []
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.handleEvents(
            receiveSubscription: { _ in log.append("subscription") },
            receiveOutput: { log.append("output \($0)") },
            receiveCompletion: { _ in log.append("completion") },
            receiveCancel: { log.append("cancel") },
            receiveRequest: { log.append("request \($0)") }
        ).sink { log.append("sink \($0)") }
        subject.send(1)
        cancellable.cancel()
        #expect(log == ["subscription", "request unlimited", "output 1", "sink 1", "cancel"])

        var completionLog: [String] = []
        _ = Just(1).handleEvents(receiveCompletion: { _ in completionLog.append("completion") }).sink { _ in
            completionLog.append("value")
        }
        #expect(completionLog == ["value", "completion"])
    }

    @Test func breakpointThatNeverFiresIsTransparent() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.breakpoint(receiveOutput: { _ in false }).breakpointOnError().subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }
}
