// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// What a reducing operator does after taking in one upstream value.
enum ReduceStep<Failure: Error> {
    /// Keep going.
    case `continue`
    /// The result is known: cancel upstream and publish it.
    case finish
    /// Cancel upstream and fail.
    case fail(Failure)
}

/// The state and logic of an operator that publishes at most one value, when the upstream
/// is done: `collect()`, `reduce`, `count`, `contains`, `allSatisfy`, `first`, `last`,
/// `min`, `max`, `ignoreOutput`, ... A value type run by ``ReducingSubscription``.
protocol Reducer {
    associatedtype Input
    associatedtype Output
    associatedtype Failure: Error
    mutating func receive(_ input: Input) -> ReduceStep<Failure>
    /// The value to publish once the upstream has finished (or the reducer said `.finish`);
    /// `nil` to finish without one.
    func result() -> Output?
    /// The reducer's starting value, for the mirror (default: none).
    var initial: Any? { get }
    /// The mirror's children when they differ from the usual four (default: `nil`).
    var mirrorChildren: [Mirror.Child]? { get }
}

extension Reducer {
    /// The reducer's starting value, shown as the `initial` child of the subscription's mirror
    /// (`reduce`'s initial result; nothing for the others).
    var initial: Any? { nil }

    /// The children of the subscription's mirror when the operator's differ from the usual
    /// four (`collect()` shows only its `count`); `nil` for the usual ones.
    var mirrorChildren: [Mirror.Child]? { nil }
}

/// Runs a ``Reducer`` the way Apple's reducing operators behave (each rule below is what
/// Apple's Combine does, as its recorded behaviour shows):
/// - it hands itself to the subscriber, then asks upstream for everything;
/// - the result (or a bare `.finished` when there is none) waits until the subscriber has
///   asked for something; a failure is passed on at once;
/// - a value or completion before the subscription, or after the end, is ignored.
///
/// One deliberate difference (docs/DESIGN.md, Memory: a subscription releases what it holds
/// on completion and cancel, so a subscriber that keeps its subscription forms no cycle): the
/// subscriber is let go at the end and on `cancel()`, also a `cancel()` before the
/// subscription has arrived, which then cancels that subscription when it comes. Apple's
/// keeps the subscriber until the object itself goes, and ignores an early `cancel()`.
/// Listed as kept differences in `Tests/Conformance/known-differences.tsv`.
final class ReducingSubscription<R: Reducer, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
where Downstream.Input == R.Output, Downstream.Failure == R.Failure {
    typealias Input = R.Input
    typealias Failure = UpstreamFailure

    private enum Phase {
        case awaitingSubscription
        case reducing(Subscription)
        /// The upstream is done (or the reducer decided); the result, if any, waits for demand.
        case holding(R.Output?)
        case done
    }

    private let lock = Lock()
    private var reducer: R
    private var downstream: Downstream?
    private var phase = Phase.awaitingSubscription
    private var demanded = false
    private let convertFailure: (UpstreamFailure) -> R.Failure
    let description: String

    init(_ reducer: R, downstream: Downstream, name: String, convertFailure: @escaping (UpstreamFailure) -> R.Failure) {
        self.reducer = reducer
        self.downstream = downstream
        self.description = name
        self.convertFailure = convertFailure
    }

    var customMirror: Mirror {
        let children: [Mirror.Child] = lock.withLock {
            if let own = reducer.mirrorChildren { return own }
            let status: String
            switch phase {
            case .awaitingSubscription: status = "awaiting subscription"
            case .reducing: status = "subscribed"
            case .holding, .done: status = "terminal"
            }
            return [
                ("downstream", downstream as Any), ("result", reducer.result() as Any),
                ("initial", reducer.initial as Any),
                ("status", status),
            ]
        }
        return Mirror(self, children: children)
    }

    var playgroundDescription: Any { description }

    func receive(subscription: Subscription) {
        let target: Downstream? = lock.withLock {
            guard case .awaitingSubscription = phase else { return nil }
            phase = .reducing(subscription)
            return downstream
        }
        guard let target else {
            subscription.cancel()
            return
        }
        target.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard lock.withLock({ if case .reducing = phase { true } else { false } }) else { return .none }
        // Values arrive one at a time (the subscriber contract), so `reducer` is not shared.
        switch reducer.receive(input) {
        case .continue:
            break
        case .finish:
            conclude(cancellingUpstream: true)
        case .fail(let error):
            fail(error, cancellingUpstream: true)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        switch completion {
        case .finished: conclude(cancellingUpstream: false)
        case .failure(let error): fail(convertFailure(error), cancellingUpstream: false)
        }
    }

    /// Ends the reduction with its result: delivered now if the subscriber has asked for
    /// something, else held until it does. The upstream subscription is cancelled (if asked)
    /// and released after the lock.
    private func conclude(cancellingUpstream: Bool) {
        let result = reducer.result()
        let (upstream, target): (Subscription?, Downstream?) = lock.withLock {
            guard case .reducing(let upstream) = phase else { return (nil, nil) }
            guard demanded else {
                phase = .holding(result)
                return (upstream, nil)
            }
            phase = .done
            return (upstream, downstream.take())
        }
        guard let upstream else { return }
        if cancellingUpstream { upstream.cancel() }
        if let target { Self.deliver(result, to: target) }
    }

    private static func deliver(_ result: R.Output?, to downstream: Downstream) {
        if let result { _ = downstream.receive(result) }
        downstream.receive(completion: .finished)
    }

    private func fail(_ error: R.Failure, cancellingUpstream: Bool) {
        let target: (Subscription, Downstream?)? = lock.withLock {
            guard case .reducing(let upstream) = phase else { return nil }
            phase = .done
            return (upstream, downstream.take())
        }
        guard let (upstream, downstream) = target else { return }
        if cancellingUpstream { upstream.cancel() }
        downstream?.receive(completion: .failure(error))
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let held: (R.Output?, Downstream)? = lock.withLock {
            demanded = true
            guard case .holding(let result) = phase, let downstream = downstream.take() else { return nil }
            phase = .done
            return (result, downstream)
        }
        guard let (result, downstream) = held else { return }
        Self.deliver(result, to: downstream)
    }

    func cancel() {
        lock.acquire()
        let phase = self.phase
        self.phase = .done
        let downstream = self.downstream.take()
        lock.release()
        if case .reducing(let upstream) = phase { upstream.cancel() }
        withExtendedLifetime(downstream) {}  // released here, outside the lock, with a held result
    }
}
