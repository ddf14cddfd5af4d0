// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

/// The failure the operator tests' publishers fail with.
struct OperatorFailure: Error, Equatable {
    let code: Int
}

/// An object whose release a test watches through a weak reference.
final class Watched: Sendable {}

/// Checks that a pipeline lets go of its subscriber and of what its closures capture once it
/// has ended.
///
/// `attach` builds the pipeline, capturing `token` in its closures, and subscribes the
/// subscriber; the check first makes sure the running pipeline does hold the token (so that
/// the check can fail), then runs `end` (a cancel of the subscriber, or a completion) and
/// `settle` (time for scheduled actions to run, say), and expects both the token and the
/// subscriber to be gone.
///
/// By default the subscriber is a ``TestSubscriber``, which keeps its subscription for good:
/// an operator that holds on to its subscriber after the end makes a cycle that this check
/// reports. With `subscriberKeepsItsSubscription: false` it is a `Sink`, which lets go of its
/// subscription when it completes or is cancelled, as real subscribers do.
func expectReleased<Input, Failure: Error>(
    initialDemand: Subscribers.Demand = .unlimited,
    subscriberKeepsItsSubscription: Bool = true,
    attach: (Watched, AnySubscriber<Input, Failure>) -> Void,
    end: (Cancellable) -> Void,
    settle: () -> Void = {},
    sourceLocation: SourceLocation = #_sourceLocation
) {
    weak var weakToken: Watched?
    weak var weakSubscriber: AnyObject?
    do {
        let subscriber: AnyObject & Cancellable
        let erased: AnySubscriber<Input, Failure>
        if subscriberKeepsItsSubscription {
            let testSubscriber = TestSubscriber<Input, Failure>(initialDemand: initialDemand)
            (subscriber, erased) = (testSubscriber, AnySubscriber(testSubscriber))
        } else {
            let sink = Subscribers.Sink<Input, Failure>(receiveCompletion: { _ in }, receiveValue: { _ in })
            (subscriber, erased) = (sink, AnySubscriber(sink))
        }
        weakSubscriber = subscriber
        do {
            let token = Watched()
            weakToken = token
            attach(token, erased)
        }
        #expect(weakToken != nil, "the running pipeline should hold what it captured", sourceLocation: sourceLocation)
        end(subscriber)
        settle()
    }
    #expect(weakToken == nil, "what the pipeline captured outlived its end", sourceLocation: sourceLocation)
    #expect(weakSubscriber == nil, "the subscriber outlived the end of its pipeline", sourceLocation: sourceLocation)
}

/// Checks what every operator over a single upstream owes: the subscriber's first request
/// reaches the upstream as `upstreamDemand`; a cancel cancels the upstream once; and the
/// pipeline, fed `sample`, is released after a cancel, after the upstream finishes and, given
/// a `failure`, after it fails (see ``expectReleased(initialDemand:subscriberKeepsItsSubscription:attach:end:settle:sourceLocation:)``
/// for `subscriberKeepsItsSubscription`).
///
/// `pipeline` applies the operator to the upstream; it gets a token to capture in the
/// operator's closures, so that their release is checked too.
func expectOperatorContract<In, InFailure: Error, Out, OutFailure: Error>(
    sending sample: In,
    failure: InFailure?,
    upstreamDemand: Subscribers.Demand = .max(2),
    subscriberKeepsItsSubscription: Bool = true,
    settle: () -> Void = {},
    sourceLocation: SourceLocation = #_sourceLocation,
    _ pipeline: (AnyPublisher<In, InFailure>, Watched) -> AnyPublisher<Out, OutFailure>
) {
    let upstream = TestPublisher<In, InFailure>()
    let subscriber = TestSubscriber<Out, OutFailure>(initialDemand: .max(2))
    pipeline(upstream.eraseToAnyPublisher(), Watched()).subscribe(subscriber)
    #expect(upstream.requests.first == upstreamDemand, "demand", sourceLocation: sourceLocation)
    subscriber.cancel()
    #expect(upstream.cancelCount == 1, "cancel", sourceLocation: sourceLocation)
    #expect(subscriber.violations.isEmpty, sourceLocation: sourceLocation)

    var endings: [Subscribers.Completion<InFailure>?] = [nil, .finished]
    if let failure { endings.append(.failure(failure)) }
    for ending in endings {
        let upstream = TestPublisher<In, InFailure>()
        expectReleased(
            subscriberKeepsItsSubscription: subscriberKeepsItsSubscription,
            attach: { (token, subscriber: AnySubscriber<Out, OutFailure>) in
                pipeline(upstream.handleEvents(receiveOutput: { _ in _ = token }).eraseToAnyPublisher(), token)
                    .subscribe(subscriber)
                upstream.send(sample)
            },
            end: { subscriber in
                if let ending { upstream.send(completion: ending) } else { subscriber.cancel() }
            },
            settle: settle,
            sourceLocation: sourceLocation
        )
    }
}

/// An outer test publisher whose values each make a new inner test publisher, for the
/// operators that flatten publishers: `outer.operator(rig.inner)`.
final class InnerPublisherRig {
    let outer = TestPublisher<Int, OperatorFailure>()
    /// The inner publishers made so far, in order.
    private(set) var inners: [TestPublisher<String, OperatorFailure>] = []

    /// Makes (and records) the inner publisher for an outer value.
    func inner(for value: Int) -> TestPublisher<String, OperatorFailure> {
        let inner = TestPublisher<String, OperatorFailure>()
        inners.append(inner)
        return inner
    }
}
