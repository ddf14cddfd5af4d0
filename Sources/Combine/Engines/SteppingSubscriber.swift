// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// What a value-by-value operator does with one upstream value.
@usableFromInline
enum ValueStep<Output, Failure: Error> {
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
/// A value type: it lives inside ``SteppingSubscriber``, which serialises the calls.
@usableFromInline
protocol ValueStepper {
    associatedtype Input
    associatedtype Output
    associatedtype Failure: Error
    mutating func step(_ input: Input) -> ValueStep<Output, Failure>
    /// The state Apple's operator shows in its mirror beside `downstream` (the last element
    /// of `removeDuplicates`, the running result of `tryScan`); `nil` when it shows none.
    var reflectedState: Any? { get }
}

extension ValueStepper {
    @inlinable
    var reflectedState: Any? { nil }
}

/// What a stepping operator does with an event that arrives before its subscription.
@usableFromInline
enum EarlyEvent: Sendable {
    /// Drop it (the operator's closure is not called).
    case ignore
    /// Handle it as if the subscription had come.
    case forward
}

/// How a stepping operator treats the edges of its subscription. Apple's operators come in
/// two shapes, and code tested against Apple's sees the difference, so each operator names
/// its shape where it creates its subscriber (ARCHITECTURE.md, "Edge policies").
@usableFromInline
enum StepperEdges: Sendable {
    /// `tryFilter`, `tryCompactMap`, `prefix(while:)`, `removeDuplicates` and their `try`
    /// forms: a value, a completion or a request before the subscription, and a request for
    /// zero values, trap; a cancel before the subscription is final, so the subscription that
    /// comes later is cancelled.
    case strict
    /// `tryMap`, `drop(while:)`, `output(in:)`, `tryScan`, `encode`, `decode`: a cancel or a
    /// request before the subscription is ignored (the subscription that comes later is
    /// taken), and early values and completions are dropped or handled as `values` and
    /// `completion` say; `ownEnd` says whether the operator's own end before the
    /// subscription (a thrown error, a range run out) reaches the subscriber;
    /// `zeroDemandTraps` is Apple's check on `request(.none)`.
    case lenient(values: EarlyEvent, completion: EarlyEvent, ownEnd: EarlyEvent, zeroDemandTraps: Bool)
}

/// The children of a stepping subscriber's mirror, as Apple's operator shows them.
@usableFromInline
enum StepperReflection: Sendable {
    /// No children.
    case empty
    /// `downstream`, then the stepper's `reflectedState` under this label if it has one.
    case downstream(state: String?)
    /// `downstream`, `finished`, `upstreamSubscription` (`encode`, `decode`).
    case coding
    /// `downstream`, `status`, `result` (`tryScan`).
    case status
}

/// Runs a ``ValueStepper`` between an upstream and a downstream subscriber. It is the
/// downstream's subscription (requests and cancels go straight upstream) and it cancels
/// upstream itself when the stepper stops early or fails.
@usableFromInline
final class SteppingSubscriber<Stepper: ValueStepper, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
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
    /// Whether the subscription has arrived: what the value path reads instead of
    /// `upstream == nil`, whose comparison copies the subscription existential (through its
    /// value witnesses) on every value. `upstream` is cleared only together with `done`.
    @usableFromInline @exclusivity(unchecked) var subscribed = false
    /// Finish right after handing the subscription downstream (`prefix(0)`).
    @usableFromInline @exclusivity(unchecked) var finishesOnSubscription = false
    @usableFromInline let description: String
    @usableFromInline let edges: StepperEdges
    @usableFromInline let reflection: StepperReflection

    @inlinable
    init(
        _ stepper: Stepper, downstream: Downstream, name: String, edges: StepperEdges, reflection: StepperReflection,
        convertFailure: @escaping (UpstreamFailure) -> Stepper.Failure
    ) {
        self.stepper = stepper
        self.downstream = downstream
        self.description = name
        self.edges = edges
        self.reflection = reflection
        self.convertFailure = convertFailure
    }

    @usableFromInline
    var playgroundDescription: Any { description }

    @usableFromInline
    var customMirror: Mirror {
        lock.acquire()
        let downstream = self.downstream as Any
        let upstream = self.upstream
        let done = self.done
        let state = stepper.reflectedState
        lock.release()
        switch reflection {
        case .empty:
            return Mirror(self, children: [])
        case .downstream(let label):
            var children: [Mirror.Child] = [("downstream", downstream)]
            if let label, let state { children.append((label, state)) }
            return Mirror(self, children: children)
        case .coding:
            return Mirror(
                self,
                children: [("downstream", downstream), ("finished", done), ("upstreamSubscription", upstream as Any)])
        case .status:
            let status = done ? "terminal" : upstream.map { "subscribed(\($0))" } ?? "awaitingSubscription"
            return Mirror(self, children: [("downstream", downstream), ("status", status), ("result", state ?? ())])
        }
    }

    /// An event came before the subscription: traps for a strict operator (naming the rule),
    /// else says whether to handle it.
    @usableFromInline
    func handlesEarly(_ event: String, lenient: (EarlyEvent, EarlyEvent) -> EarlyEvent) -> Bool {
        switch edges {
        case .strict:
            apiViolation("\(description) received \(event) before receiving a subscription")
        case .lenient(let values, let completion, _, _):
            return lenient(values, completion) == .forward
        }
    }

    @usableFromInline
    func receive(subscription: Subscription) {
        let accepted: Downstream? = lock.withLock {
            guard upstream == nil, !done else { return nil }
            upstream = subscription
            subscribed = true
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
        lock.acquire()
        let downstream = done ? nil : self.downstream
        let early = !subscribed
        lock.release()
        guard let downstream else { return .none }
        if early, !handlesEarly("a value", lenient: { values, _ in values }) { return .none }
        // Values arrive one at a time (the subscriber contract), so `stepper` is not shared.
        switch stepper.step(input) {
        case .emit(let output):
            return downstream.receive(output)
        case .skip:
            return .max(1)
        case .drop:
            return .none
        case .emitAndFinish(let output):
            // Apple's `output(in:)` returns the subscriber's demand for its last value too.
            let demand = downstream.receive(output)
            stop(with: .finished)
            return demand
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
        if upstream == nil, !done {
            lock.release()
            guard handlesEarly("a completion", lenient: { _, completion in completion }) else { return }
            lock.acquire()
        }
        let forward = done ? nil : downstream.take()
        done = true
        let upstream = self.upstream.take()
        lock.release()
        withExtendedLifetime(upstream) {}  // released here, outside the lock
        forward?.receive(completion: completion.mapError(convertFailure))
    }

    @inlinable
    func stop(with completion: Subscribers.Completion<Stepper.Failure>) {
        var upstream: Subscription?
        let downstream: Downstream? = lock.withLock {
            // A lenient operator's early values can end it before its subscription: Apple's
            // `tryMap`, `encode` and `decode` then send their failure all the same (and
            // cancel the subscription that comes later); `output(in:)` past its range and
            // `tryScan` send nothing and go on stepping the values as they come.
            guard !done else { return nil }
            if self.upstream == nil, case .lenient(_, _, .ignore, _) = edges { return nil }
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
        switch edges {
        case .strict, .lenient(_, _, _, zeroDemandTraps: true): demand.assertNonZero()
        case .lenient: break
        }
        lock.acquire()
        // An empty `prefix`/`output(in:)` range: the subscriber may ask for values while it
        // receives the subscription, before the finish; nothing must be asked upstream.
        let upstream = finishesOnSubscription ? nil : self.upstream
        let early = self.upstream == nil && !done
        lock.release()
        if early { _ = handlesEarly("a request", lenient: { _, _ in .ignore }) }
        upstream?.request(demand)
    }

    @usableFromInline
    func cancel() {
        lock.acquire()
        if case .lenient = edges, upstream == nil, !done {
            // Apple's lenient operators ignore a cancel that comes before their subscription.
            lock.release()
            return
        }
        done = true
        let upstream = self.upstream
        self.upstream = nil
        let downstream = self.downstream
        self.downstream = nil
        lock.release()
        upstream?.cancel()
        withExtendedLifetime(downstream) {}  // released here, outside the lock
    }
}
