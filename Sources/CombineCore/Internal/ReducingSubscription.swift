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
}

/// Runs a ``Reducer``: it asks upstream for everything, and publishes the result — when the
/// subscriber has asked for a value — followed by `.finished`. An upstream failure is passed
/// on at once.
final class ReducingSubscription<R: Reducer, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, @unchecked Sendable
where Downstream.Input == R.Output, Downstream.Failure == R.Failure {
    typealias Input = R.Input
    typealias Failure = UpstreamFailure

    private enum Phase {
        case awaitingSubscription
        case reducing(Subscription)
        /// The upstream is done; the result waits for demand.
        case holding(R.Output)
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

    var customMirror: Mirror { Mirror(self, children: ["downstream": downstream as Any]) }

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

    /// What ends the reduction; each case carries the upstream subscription, released (and
    /// cancelled if asked) after the lock.
    private enum Conclusion {
        case ignore
        case finish(Downstream, upstream: Subscription)
        case send(R.Output, Downstream, upstream: Subscription)
        case hold(upstream: Subscription)
    }

    private func conclude(cancellingUpstream: Bool) {
        let result = reducer.result()
        let conclusion: Conclusion = lock.withLock {
            guard case .reducing(let upstream) = phase, let downstream else { return .ignore }
            guard let result else {
                phase = .done
                self.downstream = nil
                return .finish(downstream, upstream: upstream)
            }
            guard demanded else {
                phase = .holding(result)
                return .hold(upstream: upstream)
            }
            phase = .done
            self.downstream = nil
            return .send(result, downstream, upstream: upstream)
        }
        switch conclusion {
        case .ignore:
            return
        case .hold(let upstream):
            if cancellingUpstream { upstream.cancel() }
        case .finish(let downstream, let upstream):
            if cancellingUpstream { upstream.cancel() }
            downstream.receive(completion: .finished)
        case .send(let result, let downstream, let upstream):
            if cancellingUpstream { upstream.cancel() }
            _ = downstream.receive(result)
            downstream.receive(completion: .finished)
        }
    }

    private func fail(_ error: R.Failure, cancellingUpstream: Bool) {
        let target: (Downstream, Subscription)? = lock.withLock {
            guard case .reducing(let upstream) = phase, let downstream else { return nil }
            phase = .done
            self.downstream = nil
            return (downstream, upstream)
        }
        guard let (downstream, upstream) = target else { return }
        if cancellingUpstream { upstream.cancel() }
        downstream.receive(completion: .failure(error))
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let ready: (R.Output, Downstream)? = lock.withLock {
            demanded = true
            guard case .holding(let result) = phase, let downstream else { return nil }
            phase = .done
            self.downstream = nil
            return (result, downstream)
        }
        guard let (result, downstream) = ready else { return }
        _ = downstream.receive(result)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        lock.acquire()
        let phase = self.phase
        self.phase = .done
        let downstream = self.downstream.take()
        lock.release()
        if case .reducing(let upstream) = phase { upstream.cancel() }
        _ = downstream  // released here, outside the lock, with a held result
    }
}
