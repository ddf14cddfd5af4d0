// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

/// How a pipeline under release test ends.
enum ReleaseEnding: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The source completes (or, for a source that never does, an operator ends the stream).
    case completion
    /// Every cancellable the pipeline returned is cancelled (or the object that owns an
    /// `assign(to: &$property)` subscription is dropped).
    case cancel

    var testDescription: String { rawValue }
}

extension LifetimeToken {
    /// Returns `value`: a closure that calls this captures the token, so the token lives as
    /// long as the closure does.
    func pass<Value>(_ value: Value) -> Value { value }
}

/// Weak references to the parts of a pipeline that must be gone once it has ended.
final class ReleaseWatch: @unchecked Sendable {
    private final class WeakReference: @unchecked Sendable {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    private let entries = LockedValue<[(label: String, reference: WeakReference)]>([])

    func watch(_ object: AnyObject, as label: String) {
        entries.append((label, WeakReference(object)))
    }

    /// Watches a subscription if it is an object of its own (the shared empty subscription
    /// and value-type subscriptions have no lifetime to check).
    func watchSubscription(_ subscription: Subscription, as label: String) {
        guard type(of: subscription) is AnyObject.Type else { return }
        let object = subscription as AnyObject
        guard object !== Subscriptions.empty as AnyObject else { return }
        watch(object, as: "\(label) (\(type(of: subscription)))")
    }

    /// The labels of the watched objects still alive.
    var survivors: [String] { entries.current.filter { $0.reference.object != nil }.map(\.label) }
}

/// A publisher that puts a ``ReleaseTap`` in front of each subscriber, so a test can watch the
/// last subscription of a pipeline and the subscriber object that the pipeline holds.
struct Tapped<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let watch: ReleaseWatch
    /// Forwarded instead of the first request (and no later request), if set.
    var demandCap: Subscribers.Demand?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let tap = ReleaseTap(downstream: subscriber, demandCap: demandCap, watch: watch)
        watch.watch(tap, as: "the subscriber the pipeline holds")
        upstream.receive(subscriber: tap)
    }
}

/// Forwards everything between a pipeline and its final subscriber; optionally caps the
/// demand, so that a synchronous source is still running when the test cancels.
private final class ReleaseTap<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let upstream = LockedValue<Subscription?>(nil)
    private let demandCap: Subscribers.Demand?
    private let capUsed = LockedValue(false)
    private let watch: ReleaseWatch

    init(downstream: Downstream, demandCap: Subscribers.Demand?, watch: ReleaseWatch) {
        self.downstream = downstream
        self.demandCap = demandCap
        self.watch = watch
    }

    func receive(subscription: Subscription) {
        watch.watchSubscription(subscription, as: "the pipeline's last subscription")
        upstream.withLock { $0 = subscription }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let more = downstream.receive(input)
        return demandCap == nil ? more : .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        upstream.withLock { $0 = nil }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        var forwarded = demand
        if let demandCap {
            guard
                !capUsed.withLock({ used in
                    defer { used = true }
                    return used
                })
            else { return }
            forwarded = demandCap
        }
        upstream.current?.request(forwarded)
    }

    func cancel() {
        let subscription = upstream.withLock { current in
            defer { current = nil }
            return current
        }
        subscription?.cancel()
    }
}

/// A hand-written subscriber that keeps its subscription and cancels it from its `deinit`, as
/// one owning its subscription may. Held only by its pipeline, it goes when the pipeline lets
/// go of it: a subscription that does so while holding its own lock receives that cancel
/// re-entrantly and waits on itself forever (the lock is not recursive).
final class CancelsOnDeinit<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private let subscription = LockedValue<Subscription?>(nil)
    private let demand: Subscribers.Demand
    private let onSubscription: @Sendable (Subscription) -> Void
    private let onCompletion: @Sendable () -> Void
    private let onRelease: @Sendable () -> Void

    /// - Parameters:
    ///   - demand: Requested once, on subscription.
    ///   - onSubscription: Called with the subscription, before the request.
    ///   - onCompletion: Called on completion.
    ///   - onRelease: Called from `deinit`, after the cancel.
    init(
        demand: Subscribers.Demand = .unlimited, onSubscription: @escaping @Sendable (Subscription) -> Void = { _ in },
        onCompletion: @escaping @Sendable () -> Void = {}, onRelease: @escaping @Sendable () -> Void
    ) {
        self.demand = demand
        self.onSubscription = onSubscription
        self.onCompletion = onCompletion
        self.onRelease = onRelease
    }

    deinit {
        subscription.current?.cancel()
        onRelease()
    }

    func receive(subscription: Subscription) {
        self.subscription.withLock { $0 = subscription }
        onSubscription(subscription)
        subscription.request(demand)
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) { onCompletion() }
}

/// What ends each pipeline of a ``ReleaseRig``.
enum ReleaseSubscriber: Sendable {
    /// A `Subscribers.Sink` behind a tap that the watch follows; the rig keeps its
    /// `AnyCancellable`.
    case sink
    /// A ``CancelsOnDeinit`` held only by the pipeline; the rig keeps its subscription, to
    /// cancel it. Asks for one value in the `.cancel` ending, so that synchronous sources are
    /// still running when the pipeline is cancelled.
    case cancellingFromDeinit
}

/// One pipeline of the release catalogue: its sources stay alive in the rig, everything else
/// is built in `build` from closures capturing the token.
struct ReleaseCase: Sendable, CustomTestStringConvertible {
    let name: String
    var endings: [ReleaseEnding] = ReleaseEnding.allCases
    /// After a cancel, an action already handed to the scheduler keeps the operator's
    /// subscription (not its subscriber, nor the closures) until it runs, as Apple's does.
    var heldByPendingActions = false
    let build: @Sendable (ReleaseRig, LifetimeToken) -> Void

    var testDescription: String { name }

    /// This case, with ``heldByPendingActions`` set.
    func heldUntilPendingActionsRun() -> ReleaseCase {
        var copy = self
        copy.heldByPendingActions = true
        return copy
    }

    /// An operator applied to the rig's subject, ending in a sink.
    static func op<P: Publisher & SendableMetatype>(
        _ name: String, _ apply: @escaping @Sendable (AnyPublisher<Int, Never>, LifetimeToken) -> P
    ) -> ReleaseCase {
        ReleaseCase(name: name) { rig, token in rig.sink(apply(rig.subject.eraseToAnyPublisher(), token), token) }
    }

    /// A time operator on the rig's virtual-time scheduler, applied to the rig's subject.
    static func timed<P: Publisher & SendableMetatype>(
        _ name: String,
        _ apply: @escaping @Sendable (AnyPublisher<Int, Never>, LifetimeToken, TestScheduler<VirtualTime, Never>) -> P
    ) -> ReleaseCase {
        ReleaseCase(name: name) { rig, token in
            rig.sink(apply(rig.subject.eraseToAnyPublisher(), token, rig.scheduler), token)
        }
    }
}

/// Holds a pipeline's sources and cancellables alive, drives it and ends it.
///
/// By default the source is ``subject``: ``drive`` sends 1 and 2 and ``finish`` sends
/// `.finished`. A case with another source keeps it with ``keepAlive(_:)`` and replaces
/// `drive` and `finish`.
final class ReleaseRig {
    let ending: ReleaseEnding
    let subscriberKind: ReleaseSubscriber
    let subject = PassthroughSubject<Int, Never>()
    let scheduler = TestScheduler<VirtualTime, Never>()
    let watch = ReleaseWatch()
    var drive: () -> Void
    var finish: () -> Void
    private var sources: [Any] = []
    private var cancellers: [() -> Void] = []
    private let completions = LockedValue(0)
    private let releases = LockedValue(0)
    private(set) var sinkCount = 0

    init(ending: ReleaseEnding, subscriber: ReleaseSubscriber = .sink) {
        self.ending = ending
        self.subscriberKind = subscriber
        let subject = self.subject
        drive = {
            subject.send(1)
            subject.send(2)
        }
        finish = { subject.send(completion: .finished) }
    }

    /// How many completions the rig's sinks received.
    var completionCount: Int { completions.current }

    /// How many of the rig's ``CancelsOnDeinit`` subscribers are gone.
    var releasedSubscriberCount: Int { releases.current }

    /// Keeps a source alive until the end of the test.
    func keepAlive(_ source: Any) {
        sources.append(source)
    }

    /// Keeps a cancellable alive; the `.cancel` ending cancels it.
    func keep(_ cancellable: any Cancellable) {
        sources.append(cancellable)
        cancellers.append(cancellable.cancel)
    }

    /// Runs `action` in the `.cancel` ending (after cancelling the cancellables kept so far).
    func onCancel(_ action: @escaping () -> Void) {
        cancellers.append(action)
    }

    /// `publisher`, with a tap in front of its subscriber that the watch follows; in the
    /// `.cancel` ending the tap asks for one value only, so that synchronous sources are
    /// still running when the pipeline is cancelled.
    func tapped<P: Publisher>(_ publisher: P) -> Tapped<P> {
        Tapped(upstream: publisher, watch: watch, demandCap: ending == .cancel ? .max(1) : nil)
    }

    /// Subscribes a `Subscribers.Sink` whose closures capture the token, keeping its
    /// `AnyCancellable` (or, for ``ReleaseSubscriber/cancellingFromDeinit``, a
    /// ``CancelsOnDeinit``, keeping its subscription).
    func sink<P: Publisher>(_ publisher: P, _ token: LifetimeToken) {
        let completions = self.completions
        sinkCount += 1
        if subscriberKind == .cancellingFromDeinit {
            let releases = self.releases
            let subscription = LockedValue<Subscription?>(nil)
            publisher.subscribe(
                CancelsOnDeinit<P.Output, P.Failure>(
                    demand: ending == .cancel ? .max(1) : .unlimited,
                    onSubscription: { received in subscription.withLock { $0 = received } },
                    onCompletion: { completions.withLock { $0 += 1 } },
                    onRelease: { releases.withLock { $0 += 1 } }))
            sources.append(subscription)
            cancellers.append { subscription.current?.cancel() }
            return
        }
        let sink = Subscribers.Sink<P.Output, P.Failure>(
            receiveCompletion: { _ in
                _ = token
                completions.withLock { $0 += 1 }
            },
            receiveValue: { _ in _ = token })
        // After a completion the `AnyCancellable` still holds the sink, as Apple's does (only
        // the sink's closures go); after a cancel it lets it go.
        if ending == .cancel { watch.watch(sink, as: "the sink") }
        tapped(publisher).subscribe(sink)
        keep(AnyCancellable(sink))
    }

    /// Connects a connectable publisher and keeps the connection like a cancellable.
    func connect<P: ConnectablePublisher>(_ publisher: P) {
        keep(publisher.connect())
    }

    /// Drives the pipeline, then ends it the test's way and lets the virtual clock run what
    /// the ending leaves due: `subscribe(on:)` subscribes, requests and cancels on the
    /// scheduler. After a cancel the clock only runs what is due now, so that a delayed
    /// action still pending must not be what keeps the pipeline alive.
    func run() {
        scheduler.advance()
        drive()
        switch ending {
        case .completion:
            finish()
            scheduler.advance(by: .seconds(60))
        case .cancel:
            for cancel in cancellers { cancel() }
            scheduler.advance()
        }
    }
}
