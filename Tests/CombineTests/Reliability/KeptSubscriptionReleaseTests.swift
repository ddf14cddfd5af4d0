// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

// docs/DESIGN.md, Memory: everything a subscription retains — its subscriber included — is
// released on completion and on cancel, so a subscriber that keeps its subscription (as many
// hand-written subscribers do, and as `TestSubscriber` does) forms no cycle with it. The
// release catalogue proves release with `sink`, which drops its subscription itself; this
// suite proves it with a subscriber that never lets go of it.

private final class Watched: @unchecked Sendable {}

@Suite("Release: a subscriber that keeps its subscription is still released")
struct KeptSubscriptionReleaseTests {
    /// Builds a pipeline on `subject` whose subscriber keeps its subscription.
    struct Pipeline: Sendable, CustomTestStringConvertible {
        let name: String
        let attach: @Sendable (PassthroughSubject<Int, TestFailure>, AnySubscriber<Int, TestFailure>) -> Void
        var testDescription: String { name }
    }

    struct TestFailure: Error, Equatable {}

    static let pipelines: [Pipeline] = [
        Pipeline(name: "map") { $0.map { $0 + 1 }.subscribe($1) },
        Pipeline(name: "filter") { $0.filter { $0 > 0 }.subscribe($1) },
        Pipeline(name: "compactMap") { $0.compactMap { $0 }.subscribe($1) },
        Pipeline(name: "scan") { $0.scan(0, +).subscribe($1) },
        Pipeline(name: "tryMap") { $0.tryMap { $0 }.mapError { _ in TestFailure() }.subscribe($1) },
        Pipeline(name: "removeDuplicates") { $0.removeDuplicates().subscribe($1) },
        Pipeline(name: "prefix(while:)") { $0.prefix { $0 < 100 }.subscribe($1) },
        Pipeline(name: "dropFirst") { $0.dropFirst().subscribe($1) },
        Pipeline(name: "reduce") { $0.reduce(0, +).subscribe($1) },
        Pipeline(name: "collect") { $0.collect().map(\.count).subscribe($1) },
        Pipeline(name: "flatMap") { $0.flatMap { Just($0).setFailureType(to: TestFailure.self) }.subscribe($1) },
        Pipeline(name: "merge") { $0.merge(with: Empty()).subscribe($1) },
        Pipeline(name: "zip") { $0.zip($0).map { $0 + $1 }.subscribe($1) },
        Pipeline(name: "combineLatest") { $0.combineLatest($0).map { $0 + $1 }.subscribe($1) },
        Pipeline(name: "eraseToAnyPublisher") { $0.eraseToAnyPublisher().subscribe($1) },
        Pipeline(name: "share") { $0.share().subscribe($1) },
        Pipeline(name: "handleEvents") { $0.handleEvents(receiveOutput: { _ in }).subscribe($1) },
        Pipeline(name: "catch") { $0.catch { _ in Empty() }.subscribe($1) },
        Pipeline(name: "buffer") {
            $0.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest).subscribe($1)
        },
    ]

    enum Ending: String, CaseIterable, Sendable {
        case completion, cancel
    }

    @Test(arguments: pipelines, Ending.allCases)
    func releasedAfterItsEnd(_ pipeline: Pipeline, _ ending: Ending) {
        let subject = PassthroughSubject<Int, TestFailure>()
        weak var weakSubscriber: TestSubscriber<Int, TestFailure>?
        do {
            let subscriber = TestSubscriber<Int, TestFailure>()
            weakSubscriber = subscriber
            pipeline.attach(subject, AnySubscriber(subscriber))
            subject.send(1)
            switch ending {
            case .completion:
                subject.send(completion: .finished)
                #expect(subscriber.completion == .finished)
            case .cancel:
                subscriber.cancel()
            }
            #expect(subscriber.subscription != nil)  // it keeps its subscription
        }
        #expect(weakSubscriber == nil, "\(pipeline.name) keeps its subscriber after \(ending.rawValue)")
        withExtendedLifetime(subject) {}
    }

    /// Attaches a ``CancelsOnDeinit`` held only by the pipeline (it goes when the pipeline lets
    /// go of it, and cancels from its deinit); returns its subscription and whether it is gone.
    static func attachCancellingFromDeinit(
        _ pipeline: Pipeline, to subject: PassthroughSubject<Int, TestFailure>,
        demand: Subscribers.Demand = .unlimited
    ) -> (subscription: Subscription?, released: LockedValue<Bool>) {
        let released = LockedValue(false)
        let subscription = LockedValue<Subscription?>(nil)
        pipeline.attach(
            subject,
            AnySubscriber(
                CancelsOnDeinit<Int, TestFailure>(
                    demand: demand,
                    onSubscription: { received in subscription.withLock { $0 = received } },
                    onRelease: { released.withLock { $0 = true } })))
        return (subscription.current, released)
    }

    @Test(arguments: pipelines)
    func aSubscriberCancellingFromItsDeinitIsReleasedWhenItsSubscriptionIsCancelled(_ pipeline: Pipeline) {
        let subject = PassthroughSubject<Int, TestFailure>()
        let (subscription, released) = Self.attachCancellingFromDeinit(pipeline, to: subject)
        subject.send(1)
        #expect(!released.current)
        subscription?.cancel()
        #expect(released.current, "\(pipeline.name) keeps a subscriber that cancels from its deinit")
    }

    enum Completion: String, CaseIterable, Sendable {
        case finished, failure
    }

    /// The same subscriber, let go of by a pipeline that completes: a finish, or a failure —
    /// with one value asked for, so that the second waits in the queue of `buffer`, `merge`,
    /// `zip` or `flatMap` and the failure overtakes it.
    @Test(arguments: pipelines, Completion.allCases)
    func aSubscriberCancellingFromItsDeinitIsReleasedWhenItsPipelineCompletes(
        _ pipeline: Pipeline, _ completion: Completion
    ) {
        let subject = PassthroughSubject<Int, TestFailure>()
        let (subscription, released) = Self.attachCancellingFromDeinit(
            pipeline, to: subject, demand: completion == .finished ? .unlimited : .max(1))
        subject.send(1)
        subject.send(2)
        #expect(!released.current)
        subject.send(completion: completion == .finished ? .finished : .failure(TestFailure()))
        #expect(released.current, "\(pipeline.name) keeps a subscriber that cancels from its deinit")
        subscription?.cancel()  // a cancel after the end does nothing
    }

    /// Every pipeline of the release catalogue (sources, operators, time operators on a
    /// virtual-time scheduler), ended by a ``CancelsOnDeinit`` instead of a sink: each lets go
    /// of it — on completion and on cancel — without holding a lock, and it is gone.
    @Test(
        arguments: (releaseCatalogue.filter { !subscriberReleaseCases.map(\.name).contains($0.name) }).flatMap {
            entry in entry.endings.map { (entry, $0) }
        })
    func aSubscriberCancellingFromItsDeinitIsReleasedByEveryCataloguedPipeline(
        _ entry: ReleaseCase, _ ending: ReleaseEnding
    ) {
        let rig = ReleaseRig(ending: ending, subscriber: .cancellingFromDeinit)
        entry.build(rig, LifetimeToken())
        #expect(rig.sinkCount > 0)
        rig.run()
        if ending == .completion {
            #expect(rig.completionCount == rig.sinkCount, "\(entry.name): the pipeline did not complete")
        }
        #expect(
            rig.releasedSubscriberCount == rig.sinkCount,
            "\(entry.name) keeps a subscriber that cancels from its deinit after \(ending)")
        withExtendedLifetime(rig) {}
    }
}
