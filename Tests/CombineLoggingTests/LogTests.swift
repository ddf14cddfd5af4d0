// SPDX-License-Identifier: Apache-2.0
// Built with the package trait `Logging` (Package.swift), which brings swift-log.
#if Logging
import Combine
import CombineLogging
import Logging
import TestSupport
import Testing

/// A log handler that keeps every event it is given.
private struct RecordingHandler: LogHandler {
    let events: LockedValue<[LogEvent]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        events.withLock { $0.append(event) }
    }
}

private struct Failed: Error, CustomStringConvertible {
    var description: String { "failed" }
}

/// A logger whose events the test reads back, and the events so far.
private func recordingLogger(level: Logger.Level = .trace) -> (Logger, LockedValue<[LogEvent]>) {
    let events = LockedValue<[LogEvent]>([])
    let logger = Logger(label: "test") { _ in RecordingHandler(events: events, logLevel: level) }
    return (logger, events)
}

private func messages(_ events: LockedValue<[LogEvent]>) -> [String] {
    events.current.map { "\($0.message)" }
}

private func metadata(_ events: LockedValue<[LogEvent]>, _ key: String) -> [String?] {
    events.current.map { $0.metadata?[key].map { "\($0)" } }
}

@Suite("log(_:to:level:failureLevel:): print's events through swift-log, with metadata")
struct LogTests {
    @Test("each event is one message, as print writes it, at the level given; values pass through")
    func eventsAndLevels() {
        let (logger, events) = recordingLogger()
        var received: [Int] = []
        _ = [1, 2].publisher.log("numbers", to: logger, level: .info).sink { received.append($0) }
        #expect(received == [1, 2])
        #expect(
            messages(events) == [
                "numbers: receive subscription: ([1, 2])", "numbers: request unlimited", "numbers: receive value: (1)",
                "numbers: receive value: (2)", "numbers: receive finished",
            ])
        #expect(events.current.allSatisfy { $0.level == .info })
        #expect(metadata(events, "combine.event") == ["subscription", "request", "value", "value", "finished"])
        #expect(metadata(events, "combine.demand") == [nil, "unlimited", nil, nil, nil])
        let ids = Set(metadata(events, "combine.subscription").compactMap { $0 })
        #expect(ids.count == 1, "every event of one subscriber carries the same subscription")
    }

    @Test("a failure is logged at the failure level; no prefix, no colon")
    func failure() {
        let (logger, events) = recordingLogger()
        let subject = PassthroughSubject<Int, Failed>()
        var completion: Subscribers.Completion<Failed>?
        let cancellable = subject.log(to: logger).sink(receiveCompletion: { completion = $0 }, receiveValue: { _ in })
        subject.send(completion: .failure(Failed()))
        #expect(completion != nil)
        #expect(events.current.last.map { "\($0.message)" } == "receive error: (failed)")
        #expect(events.current.last?.level == .error)
        #expect(metadata(events, "combine.event").last == "failure")
        #expect(events.current.dropLast().allSatisfy { $0.level == .debug }, "the default level is .debug")
        withExtendedLifetime(cancellable) {}
    }

    @Test("demand asked for and demand a subscriber returns are logged with their amount")
    func demand() {
        let (logger, events) = recordingLogger()
        let subject = PassthroughSubject<Int, Never>()
        final class OneMore: Subscriber {
            var subscription: Subscription?
            var values: [Int] = []
            func receive(subscription: Subscription) {
                self.subscription = subscription
                subscription.request(.max(1))
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                values.append(input)
                return input < 2 ? .max(1) : .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let subscriber = OneMore()
        subject.log(to: logger).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [1, 2])
        #expect(
            messages(events) == [
                "receive subscription: (PassthroughSubject)", "request max: (1)", "receive value: (1)",
                "request max: (1) (synchronous)", "receive value: (2)",
            ])
        #expect(metadata(events, "combine.demand") == [nil, "max: (1)", nil, "max: (1)", nil])
    }

    @Test("a cancel is logged once, reaches the upstream, and lets the subscriber go; nothing after it")
    func cancel() {
        let (logger, events) = recordingLogger()
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: LifetimeToken?
        var cancellable: AnyCancellable?
        do {
            let token = LifetimeToken()
            weakToken = token
            cancellable = subject.log(to: logger).sink { _ = token.pass($0) }
        }
        cancellable?.cancel()
        cancellable?.cancel()
        subject.send(1)
        #expect(messages(events).last == "receive cancel")
        #expect(messages(events).filter { $0 == "receive cancel" }.count == 1)
        #expect(weakToken == nil, "the subscriber is let go at the cancel")
        #expect(!messages(events).contains("receive value: (1)"))
    }

    @Test("each subscriber has its own subscription identifier")
    func subscriptionIdentity() {
        let (logger, events) = recordingLogger()
        let logged = Just(1).log(to: logger)
        _ = logged.sink { _ in }
        _ = logged.sink { _ in }
        #expect(Set(metadata(events, "combine.subscription").compactMap { $0 }).count == 2)
    }

    @Test("the logger's own level filters, as for any swift-log message")
    func loggerLevelFilters() {
        let (logger, events) = recordingLogger(level: .info)
        _ = Just(1).log(to: logger, level: .debug).sink { _ in }
        #expect(events.current.isEmpty)
        _ = Fail<Int, Failed>(error: Failed()).log(to: logger, level: .debug).sink(
            receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(messages(events) == ["receive error: (failed)"], "the failure's level, .error, passes")
    }

    @Test("a message the logger's level filters out is never built: no value is described for it")
    func filteredMessagesAreNotBuilt() {
        let (logger, events) = recordingLogger(level: .info)
        let described = LockedValue(0)
        let subject = PassthroughSubject<Described, Never>()
        let filtered = subject.log("filtered", to: logger, level: .debug).sink { _ in }
        for _ in 0..<5 { subject.send(Described(count: described)) }
        #expect(events.current.isEmpty)
        #expect(described.current == 0, "described \(described.current) values for messages nobody writes")
        filtered.cancel()
        let written = subject.log("written", to: logger, level: .info).sink { _ in }
        for _ in 0..<5 { subject.send(Described(count: described)) }
        #expect(described.current == 5, "each written value is described once")
        written.cancel()
    }
}

/// A value that counts how often its description is made.
private struct Described: CustomStringConvertible, Sendable {
    let count: LockedValue<Int>
    var description: String {
        count.withLock { $0 += 1 }
        return "described"
    }
}
#endif
