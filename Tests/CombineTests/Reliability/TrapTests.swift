// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

// API violations that Apple's Combine treats as fatal, proved to trap in a child process, with
// the rule broken in the message. Elsewhere already: `Demand.max(-1)` (DemandTests),
// requesting `.none` from Just (BuiltInPublisherTests, SourcePublisherBehaviourTests) and from
// a data task (DataTaskPublisherTests) (a sequence's or Record's subscription takes it without
// trapping, as Apple's: SourcePublisherBehaviourTests; so does merge's, as Apple's: MergeTests),
// `assertNoFailure` with its prefix and the error in the message (DebuggingAndCodingTests),
// and misuse of `Record.Recording` (RecordSequenceBehaviourTests).

/// A subscription of each kind our operators and sources hand out, asked for `.none`.
enum NoneRequest: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case passthroughSubject
    case currentValueSubject
    case subjectThroughMap
    case future
    case flatMap
    case switchToLatest
    case zip
    case combineLatest
    case receiveOn
    case subscribeOn
    case debounce
    case collect
    case append
    case replaceEmpty
    case share

    var testDescription: String { rawValue }

    /// Subscribes to a publisher of this kind with a subscriber that requests `.none`.
    func run() {
        let subject = PassthroughSubject<Int, Never>()
        let scheduler = TestScheduler<VirtualTime, Never>()
        switch self {
        case .passthroughSubject: requestNone(from: subject)
        case .currentValueSubject: requestNone(from: CurrentValueSubject<Int, Never>(0))
        case .subjectThroughMap: requestNone(from: subject.map { $0 + 1 })
        case .future: requestNone(from: Future<Int, Never> { $0(.success(1)) })
        case .flatMap: requestNone(from: subject.flatMap { Just($0) })
        case .switchToLatest: requestNone(from: subject.map { Just($0) }.switchToLatest())
        case .zip: requestNone(from: subject.zip(subject))
        case .combineLatest: requestNone(from: subject.combineLatest(subject))
        case .receiveOn: requestNone(from: subject.receive(on: ImmediateScheduler.shared))
        case .subscribeOn: requestNone(from: subject.subscribe(on: ImmediateScheduler.shared))
        case .debounce: requestNone(from: subject.debounce(for: .seconds(1), scheduler: scheduler))
        case .collect: requestNone(from: subject.collect())
        case .append: requestNone(from: subject.append(1))
        case .replaceEmpty: requestNone(from: subject.replaceEmpty(with: 0))
        case .share: requestNone(from: subject.share())
        }
    }

    private func requestNone<P: Publisher>(from publisher: P) {
        publisher.subscribe(AnySubscriber<P.Output, P.Failure>(receiveSubscription: { $0.request(.none) }))
    }
}

@Suite("Traps where Apple's Combine traps")
struct TrapTests {
    @Test(arguments: NoneRequest.allCases)
    func requestingNoneTraps(_ kind: NoneRequest) async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [kind] in
                kind.run()
            }
        }
        #expect(standardErrorText(of: result).contains("API Violation: demand must not be zero"))
    }

    /// Apple's buffer makes its custom error under its lock, so a closure that sends to the
    /// buffer's upstream crashes there; ours names the rule instead of deadlocking.
    @Test func bufferCustomErrorSendingToItsOwnBufferTraps() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let upstream = TestPublisher<Int, CoreTestError>()
                let subscriber = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
                upstream.buffer(
                    size: 0, prefetch: .keepFull,
                    whenFull: .customError {
                        _ = upstream.send(1000)
                        return CoreTestError(code: 1)
                    }
                ).subscribe(subscriber)
                _ = upstream.send(0)
            }
        }
        #expect(standardErrorText(of: result).contains("the customError closure sent a value to the buffer"))
    }

    @Test func assertNoFailureTrapsOnAFailureAfterValues() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let subject = PassthroughSubject<Int, CoreTestError>()
                let cancellable = subject.assertNoFailure("after values").sink { _ in }
                subject.send(1)
                subject.send(completion: .failure(CoreTestError(code: 7)))
                withExtendedLifetime(cancellable) {}
            }
        }
        #expect(standardErrorText(of: result).contains("after values: assertNoFailure: unexpected failure"))
        #expect(standardErrorText(of: result).contains("CoreTestError(code: 7)"))
    }

    /// Apple's `AsyncPublisher` traps on a value it did not ask for ("Received an output without
    /// requesting demand", as reported by users of Apple's Combine); so does ours. A value
    /// arriving after the iteration was cancelled or completed is only dropped.
    @Test func valuesTrapsOnAValueItDidNotRequest() async {
        await runningExitTest {
            await #expect(processExitsWith: .failure) {
                let upstream = TestPublisher<Int, Never>()
                let iterator = upstream.values.makeAsyncIterator()
                upstream.send(1)
                withExtendedLifetime(iterator) {}
            }
        }
    }
}

/// An upstream that sends beyond the demand it was given breaks its contract. Apple's `zip`
/// does not trap: it delivers a tuple as soon as it is complete, even beyond the subscriber's
/// demand (its own tests record it), and so does ours; with upstreams that keep to the demand
/// zip asks of them, no tuple goes beyond the subscriber's demand.
@Suite("Upstreams sending beyond demand: zip delivers at once, switchToLatest traps")
struct BeyondDemandTests {
    @Test func zipDeliversACompleteTupleAtOnceAsApples() {
        let left = TestPublisher<Int, Never>()
        let right = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        left.zip(right) { $0 * 10 + $1 }.subscribe(subscriber)
        #expect(left.requests == [.max(1)])
        left.send(1)
        left.send(2)
        right.send(1)
        #expect(subscriber.values == [11])
        #expect(right.send(2) == .none)
        #expect(subscriber.values == [11, 22])
    }

    /// Apple's switchToLatest delivers its inner's values straight to the subscriber and traps
    /// on one beyond the subscriber's demand; ours names the rule.
    @Test func switchToLatestTrapsOnAValueBeyondTheDemand() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let outer = PassthroughSubject<TestPublisher<Int, Never>, Never>()
                let inner = TestPublisher<Int, Never>()
                let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
                outer.switchToLatest().subscribe(subscriber)
                outer.send(inner)
                _ = inner.send(1)
                _ = inner.send(2)
            }
        }
        #expect(
            standardErrorText(of: result).contains(
                "SwitchToLatest received a value from its inner publisher beyond the demand"))
    }
}
