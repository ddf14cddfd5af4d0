/// What a value-by-value operator does with one upstream value.
@usableFromInline
enum FilterStep<Output, Failure: Error> {
    /// Send this value downstream.
    case emit(Output)
    /// Drop the value and ask upstream for one more in its place.
    case skip
    /// Drop the value without asking for another (it was asked for in advance).
    case drop
    /// Send this value, then cancel upstream and finish.
    case emitAndFinish(Output)
    /// Cancel upstream and finish without sending anything.
    case finish
    /// Cancel upstream and fail.
    case fail(Failure)
}

/// The per-subscription state and logic of a value-by-value operator that may stop early
/// or fail: `tryMap`, `tryFilter`, `scan`, `removeDuplicates`, `prefix(while:)`, ...
/// A value type: it lives inside ``FilteringSubscriber``, which serialises the calls.
@usableFromInline
protocol FilterStepper {
    associatedtype Input
    associatedtype Output
    associatedtype Failure: Error
    mutating func step(_ input: Input) -> FilterStep<Output, Failure>
    /// Added to the subscriber's first request: values the operator will drop anyway.
    var extraInitialDemand: Int { get }
}

extension FilterStepper {
    @inlinable
    var extraInitialDemand: Int { 0 }
}

/// Runs a ``FilterStepper`` between an upstream and a downstream subscriber. It is the
/// downstream's subscription (requests and cancels go straight upstream) and it cancels
/// upstream itself when the stepper stops early or fails.
@usableFromInline
final class FilteringSubscriber<Stepper: FilterStepper, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, @unchecked Sendable
where Downstream.Input == Stepper.Output, Downstream.Failure == Stepper.Failure {
    @usableFromInline typealias Input = Stepper.Input
    @usableFromInline typealias Failure = UpstreamFailure

    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var stepper: Stepper
    /// Released on completion and on cancel (a subscriber that keeps its subscription would
    /// otherwise form a cycle with it).
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline let convertFailure: (UpstreamFailure) -> Stepper.Failure
    @usableFromInline @exclusivity(unchecked) var upstream: Subscription?
    @usableFromInline @exclusivity(unchecked) var done = false
    @usableFromInline @exclusivity(unchecked) var requestedBefore = false
    @usableFromInline let extraInitialDemand: Int
    /// Finish right after handing the subscription downstream (`prefix(0)`).
    @usableFromInline @exclusivity(unchecked) var finishesOnSubscription = false
    @usableFromInline let description: String

    @inlinable
    init(
        _ stepper: Stepper, downstream: Downstream, name: String,
        convertFailure: @escaping (UpstreamFailure) -> Stepper.Failure
    ) {
        self.stepper = stepper
        self.extraInitialDemand = stepper.extraInitialDemand
        self.downstream = downstream
        self.description = name
        self.convertFailure = convertFailure
    }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: ["downstream": lock.withLock { downstream } as Any]) }

    @usableFromInline
    func receive(subscription: Subscription) {
        let accepted: Downstream? = lock.withLock {
            guard upstream == nil, !done else { return nil }
            upstream = subscription
            return downstream
        }
        guard let downstream = accepted else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
        if finishesOnSubscription { stop(with: .finished) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let downstream = lock.withLock({ done ? nil : self.downstream }) else { return .none }
        // Values arrive one at a time (the subscriber contract), so `stepper` is not shared.
        switch stepper.step(input) {
        case .emit(let output):
            return downstream.receive(output)
        case .skip:
            return .max(1)
        case .drop:
            return .none
        case .emitAndFinish(let output):
            _ = downstream.receive(output)
            stop(with: .finished)
        case .finish:
            stop(with: .finished)
        case .fail(let error):
            stop(with: .failure(error))
        }
        return .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.acquire()
        let forward = done ? nil : downstream.take()
        done = true
        let upstream = self.upstream.take()
        lock.release()
        _ = upstream  // released here, outside the lock
        forward?.receive(completion: completion.mapError(convertFailure))
    }

    @inlinable
    func stop(with completion: Subscribers.Completion<Stepper.Failure>) {
        var upstream: Subscription?
        let downstream: Downstream? = lock.withLock {
            guard !done else { return nil }
            done = true
            upstream = self.upstream
            self.upstream = nil
            defer { self.downstream = nil }
            return self.downstream
        }
        guard let downstream else { return }
        upstream?.cancel()
        downstream.receive(completion: completion)
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        let (upstream, first): (Subscription?, Bool) = lock.withLock {
            defer { requestedBefore = true }
            // An empty `prefix`/`output(in:)` range: the subscriber may ask for values while it
            // receives the subscription, before the finish; nothing must be asked upstream.
            guard !finishesOnSubscription else { return (nil, false) }
            return (self.upstream, !requestedBefore)
        }
        upstream?.request(first ? demand + extraInitialDemand : demand)
    }

    @usableFromInline
    func cancel() {
        lock.acquire()
        done = true
        let upstream = self.upstream
        self.upstream = nil
        let downstream = self.downstream
        self.downstream = nil
        lock.release()
        upstream?.cancel()
        _ = downstream  // released here, outside the lock
    }
}
