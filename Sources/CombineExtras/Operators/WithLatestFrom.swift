// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension Publisher {
    /// Combines each value of this publisher with the latest value of `other`, through
    /// `resultSelector`.
    ///
    /// ![A marble diagram of withLatestFrom, drawn from a run of it](marble-withLatestFrom)
    ///
    /// ```
    /// self:  --1-----2   --3   -----4   --|
    /// other: ----a----   ---   -b--|
    /// out:   --------'2a'--'3a'-----'4b'--|   (other's finish changes nothing)
    /// ```
    ///
    /// Values of this publisher that arrive before `other` has produced one are dropped (and
    /// replaced by asking for one more, so the subscriber's demand is not used up by them).
    /// `other` is subscribed with unlimited demand; the subscriber's demand goes to this
    /// publisher. The result completes when this publisher completes — `other` finishing
    /// changes nothing, its last value stays the latest — and fails when either fails.
    ///
    /// ```swift
    /// let taps = PassthroughSubject<Void, Never>()
    /// let text = PassthroughSubject<String, Never>()
    /// let cancellable = taps
    ///     .withLatestFrom(text) { _, latest in latest.uppercased() }
    ///     .sink { print($0) }
    /// taps.send()          // dropped: no text yet
    /// text.send("hi")
    /// taps.send()
    /// // Prints: HI
    /// ```
    ///
    /// - Parameters:
    ///   - other: The publisher whose latest value is combined.
    ///   - resultSelector: Makes the output from a value of this publisher and the latest
    ///     value of `other`.
    /// - Returns: A ``Publishers/WithLatestFrom`` publisher of the results of
    ///   `resultSelector`.
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
    ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
    }

    /// Combines each value of this publisher with the latest values of `other` and `other1`
    /// (both must have produced one), through `resultSelector`; see
    /// ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ![A marble diagram of withLatestFrom(_:_:resultSelector:), drawn from a run of it](marble-withLatestFrom2)
    ///
    /// ```
    /// self:   1--2--3    ----4    -|
    /// other:  -a-----    b
    /// other1: ----x
    /// out:    ------'3ax'----'4bx'-|   (2 is dropped: other1 has no value yet)
    /// ```
    ///
    /// The latest values are those of `other.combineLatest(other1)`, which is subscribed with
    /// unlimited demand; demand and completion are as in ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ```swift
    /// let saves = PassthroughSubject<Void, Never>()
    /// let name = PassthroughSubject<String, Never>()
    /// let age = PassthroughSubject<Int, Never>()
    /// let cancellable = saves
    ///     .withLatestFrom(name, age) { _, latest in "\(latest.0), \(latest.1)" }
    ///     .sink { print($0) }
    /// name.send("Ada")
    /// saves.send()         // dropped: age has no value yet
    /// age.send(36)
    /// saves.send()
    /// // Prints: Ada, 36
    /// ```
    ///
    /// - Parameters:
    ///   - other: The first publisher whose latest value is combined.
    ///   - other1: The second publisher whose latest value is combined.
    ///   - resultSelector: Makes the output from a value of this publisher and a tuple of the
    ///     latest values of `other` and `other1`.
    /// - Returns: A ``Publishers/WithLatestFrom`` publisher of the results of
    ///   `resultSelector`.
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Result>(
        _ other: Other, _ other1: Other1,
        resultSelector: @escaping (Output, (Other.Output, Other1.Output)) -> Result
    ) -> Publishers.WithLatestFrom<Self, AnyPublisher<(Other.Output, Other1.Output), Failure>, Result>
    where Other.Failure == Failure, Other1.Failure == Failure {
        withLatestFrom(other.combineLatest(other1).eraseToAnyPublisher(), resultSelector: resultSelector)
    }

    /// Combines each value of this publisher with the latest values of `other`, `other1` and
    /// `other2` (all must have produced one), through `resultSelector`; see
    /// ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ![A marble diagram of withLatestFrom(_:_:_:resultSelector:), drawn from a run of it](marble-withLatestFrom3)
    ///
    /// ```
    /// self:   1--2--3     ----4     -|
    /// other:  -a-----     b
    /// other1: ----x
    /// other2: --p
    /// out:    ------'3axp'----'4bxp'-|   (2 is dropped: other1 has no value yet)
    /// ```
    ///
    /// The latest values are those of `other.combineLatest(other1, other2)`, which is
    /// subscribed with unlimited demand; demand and completion are as in
    /// ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ```swift
    /// let saves = PassthroughSubject<Void, Never>()
    /// let name = PassthroughSubject<String, Never>()
    /// let age = PassthroughSubject<Int, Never>()
    /// let city = PassthroughSubject<String, Never>()
    /// let cancellable = saves
    ///     .withLatestFrom(name, age, city) { _, latest in "\(latest.0), \(latest.1), \(latest.2)" }
    ///     .sink { print($0) }
    /// name.send("Ada")
    /// age.send(36)
    /// city.send("London")
    /// saves.send()
    /// // Prints: Ada, 36, London
    /// ```
    ///
    /// - Parameters:
    ///   - other: The first publisher whose latest value is combined.
    ///   - other1: The second publisher whose latest value is combined.
    ///   - other2: The third publisher whose latest value is combined.
    ///   - resultSelector: Makes the output from a value of this publisher and a tuple of the
    ///     latest values of `other`, `other1` and `other2`.
    /// - Returns: A ``Publishers/WithLatestFrom`` publisher of the results of
    ///   `resultSelector`.
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher, Result>(
        _ other: Other, _ other1: Other1, _ other2: Other2,
        resultSelector: @escaping (Output, (Other.Output, Other1.Output, Other2.Output)) -> Result
    ) -> Publishers.WithLatestFrom<Self, AnyPublisher<(Other.Output, Other1.Output, Other2.Output), Failure>, Result>
    where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure {
        withLatestFrom(other.combineLatest(other1, other2).eraseToAnyPublisher(), resultSelector: resultSelector)
    }

    /// Replaces each value of this publisher with the latest value of `other`; see
    /// ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ![A marble diagram of withLatestFrom(_:), drawn from a run of it](marble-withLatestFrom-value)
    ///
    /// ```
    /// self:  --1-----2--3--|
    /// other: ----a--------b--|
    /// out:   --------a--a--|
    /// ```
    ///
    /// ```swift
    /// let taps = PassthroughSubject<Void, Never>()
    /// let text = PassthroughSubject<String, Never>()
    /// let cancellable = taps.withLatestFrom(text).sink { print($0) }
    /// taps.send()          // dropped: no text yet
    /// text.send("a")
    /// taps.send()
    /// text.send("b")
    /// taps.send()
    /// taps.send()
    /// // Prints: a, b, b
    /// ```
    ///
    /// - Parameter other: The publisher whose latest value is published.
    /// - Returns: A ``Publishers/WithLatestFrom`` publisher of the latest value of `other` at
    ///   each value of this publisher.
    public func withLatestFrom<Other: Publisher>(
        _ other: Other
    ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
        withLatestFrom(other) { $1 }
    }

    /// Replaces each value of this publisher with the latest values of `other` and `other1`;
    /// see ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ![A marble diagram of withLatestFrom(_:_:), drawn from a run of it](marble-withLatestFrom2-value)
    ///
    /// ```
    /// self:   1--2--3----4-|
    /// other:  -a-----b
    /// other1: ----x
    /// out:    ------s----t-|   s = (a, x), t = (b, x); 2 is dropped: other1 has no value yet
    /// ```
    ///
    /// ```swift
    /// let saves = PassthroughSubject<Void, Never>()
    /// let name = PassthroughSubject<String, Never>()
    /// let age = PassthroughSubject<Int, Never>()
    /// let cancellable = saves.withLatestFrom(name, age).sink { print($0) }
    /// name.send("Ada")
    /// age.send(36)
    /// saves.send()
    /// // Prints: ("Ada", 36)
    /// ```
    ///
    /// - Parameters:
    ///   - other: The first publisher whose latest value is published.
    ///   - other1: The second publisher whose latest value is published.
    /// - Returns: A ``Publishers/WithLatestFrom`` publisher of tuples of the latest values of
    ///   `other` and `other1`.
    public func withLatestFrom<Other: Publisher, Other1: Publisher>(
        _ other: Other, _ other1: Other1
    )
        -> Publishers.WithLatestFrom<
            Self, AnyPublisher<(Other.Output, Other1.Output), Failure>, (Other.Output, Other1.Output)
        > where Other.Failure == Failure, Other1.Failure == Failure
    {
        withLatestFrom(other, other1) { $1 }
    }

    /// Replaces each value of this publisher with the latest values of `other`, `other1` and
    /// `other2`; see ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ![A marble diagram of withLatestFrom(_:_:_:), drawn from a run of it](marble-withLatestFrom3-value)
    ///
    /// ```
    /// self:   1--2--3----4-|
    /// other:  -a-----b
    /// other1: ----x
    /// other2: --p
    /// out:    ------s----t-|   s = (a, x, p), t = (b, x, p)
    /// ```
    ///
    /// ```swift
    /// let saves = PassthroughSubject<Void, Never>()
    /// let name = PassthroughSubject<String, Never>()
    /// let age = PassthroughSubject<Int, Never>()
    /// let city = PassthroughSubject<String, Never>()
    /// let cancellable = saves.withLatestFrom(name, age, city).sink { print($0) }
    /// name.send("Ada")
    /// age.send(36)
    /// city.send("London")
    /// saves.send()
    /// // Prints: ("Ada", 36, "London")
    /// ```
    ///
    /// - Parameters:
    ///   - other: The first publisher whose latest value is published.
    ///   - other1: The second publisher whose latest value is published.
    ///   - other2: The third publisher whose latest value is published.
    /// - Returns: A ``Publishers/WithLatestFrom`` publisher of tuples of the latest values of
    ///   `other`, `other1` and `other2`.
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher>(
        _ other: Other, _ other1: Other1, _ other2: Other2
    )
        -> Publishers.WithLatestFrom<
            Self, AnyPublisher<(Other.Output, Other1.Output, Other2.Output), Failure>,
            (Other.Output, Other1.Output, Other2.Output)
        > where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure
    {
        withLatestFrom(other, other1, other2) { $1 }
    }
}

extension Publishers {
    /// A publisher that combines each value of its upstream with the latest value of another
    /// publisher; see ``Combine/Publisher/withLatestFrom(_:resultSelector:)``.
    ///
    /// ```
    /// upstream: --1   ---2   --3   -|
    /// other:    -a-   ----   b
    /// out:      --'1a'---'2a'--'3b'-|
    /// ```
    public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure
        /// Makes an output from a value of the upstream and the latest value of the other.
        public typealias ResultSelector = (Upstream.Output, Other.Output) -> Output

        /// The publisher whose values are combined and whose completion ends the result.
        public let upstream: Upstream
        /// The publisher whose latest value is combined.
        public let other: Other
        /// Makes the output.
        public let resultSelector: ResultSelector

        /// Creates a publisher combining each value of `upstream` with the latest of `other`.
        public init(upstream: Upstream, other: Other, resultSelector: @escaping ResultSelector) {
            self.upstream = upstream
            self.other = other
            self.resultSelector = resultSelector
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = WithLatestFromSubscription<Upstream.Output, Other.Output, S>(
                downstream: subscriber, resultSelector: resultSelector)
            subscriber.receive(subscription: subscription)
            guard subscription.isLive else { return }
            other.receive(subscriber: subscription.latestSide)
            guard subscription.isLive else { return }
            upstream.receive(subscriber: subscription)
        }
    }
}

/// The subscription of ``Publishers/WithLatestFrom``: the subscriber of the upstream, with
/// ``LatestSide`` as the subscriber of the other publisher.
private final class WithLatestFromSubscription<UpstreamOutput, Latest, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, @unchecked Sendable
{
    typealias Input = UpstreamOutput
    typealias Failure = Downstream.Failure

    private let delivery: DownstreamQueue<Downstream>
    private let lock = Lock()
    private var resultSelector: ((UpstreamOutput, Latest) -> Downstream.Input)?
    private var latest: Latest?
    private var upstream: Subscription?
    private var other: Subscription?
    /// Demand requested before the upstream's subscription arrived.
    private var pending = Subscribers.Demand.none
    private var ended = false

    init(downstream: Downstream, resultSelector: @escaping (UpstreamOutput, Latest) -> Downstream.Input) {
        delivery = DownstreamQueue(downstream)
        self.resultSelector = resultSelector
    }

    var description: String { "WithLatestFrom" }

    var isLive: Bool { lock.withLock { !ended } }

    var latestSide: LatestSide { LatestSide(self) }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        let more = demand + delivery.request(demand)
        let upstream: Subscription? = lock.withLock {
            guard !ended else { return nil }
            if self.upstream == nil { pending += more }
            return self.upstream
        }
        upstream?.request(more)
    }

    func cancel() {
        end()?.cancelAll()
        delivery.cancel()
    }

    // MARK: The upstream

    func receive(subscription: Subscription) {
        let pending: Subscribers.Demand? = lock.withLock {
            guard !ended, upstream == nil else { return nil }
            upstream = subscription
            defer { self.pending = .none }
            return self.pending
        }
        guard let pending else { return subscription.cancel() }
        if pending > 0 { subscription.request(pending) }
    }

    private enum Pairing {
        case ended
        case noLatestYet
        case ready((UpstreamOutput, Latest) -> Downstream.Input, Latest)
    }

    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        let pairing: Pairing = lock.withLock {
            guard !ended, let resultSelector else { return .ended }
            guard let latest else { return .noLatestYet }
            return .ready(resultSelector, latest)
        }
        switch pairing {
        case .ended:
            return .none
        case .noLatestYet:
            return .max(1)  // dropped: ask for a replacement, so the subscriber's demand stands
        case .ready(let resultSelector, let latest):
            return delivery.send(resultSelector(input, latest))
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard let ending = end() else { return }
        ending.other?.cancel()
        delivery.send(completion: completion)
    }

    // MARK: The other publisher

    fileprivate func otherSubscribed(_ subscription: Subscription) {
        let accepted: Bool = lock.withLock {
            guard !ended, other == nil else { return false }
            other = subscription
            return true
        }
        if accepted {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    fileprivate func otherSent(_ value: Latest) {
        let replaced: Latest?? = lock.withLock {
            guard !ended else { return nil }
            defer { latest = value }
            return latest
        }
        withExtendedLifetime(replaced) {}  // the previous value is released here, outside the lock
    }

    fileprivate func otherCompleted(_ completion: Subscribers.Completion<Failure>) {
        guard case .failure = completion else {
            lock.withLock { other = nil }  // keeps the latest value
            return
        }
        guard let ending = end() else { return }
        ending.upstream?.cancel()
        delivery.send(completion: completion)
    }

    /// What ending leaves to do outside the lock.
    private struct Ending {
        let upstream: Subscription?
        let other: Subscription?
        let released: (Any?, Any?)

        func cancelAll() {
            upstream?.cancel()
            other?.cancel()
        }
    }

    /// Marks the subscription ended and takes everything it holds, once.
    private func end() -> Ending? {
        lock.withLock {
            guard !ended else { return nil }
            ended = true
            defer {
                upstream = nil
                other = nil
                latest = nil
                resultSelector = nil
            }
            return Ending(upstream: upstream, other: other, released: (latest, resultSelector))
        }
    }

    /// The subscriber of the other publisher: it keeps the latest value.
    struct LatestSide: Subscriber, CustomStringConvertible {
        typealias Input = Latest

        private let owner: WithLatestFromSubscription
        let combineIdentifier = CombineIdentifier()

        init(_ owner: WithLatestFromSubscription) {
            self.owner = owner
        }

        var description: String { "WithLatestFrom" }

        func receive(subscription: Subscription) {
            owner.otherSubscribed(subscription)
        }

        func receive(_ input: Latest) -> Subscribers.Demand {
            owner.otherSent(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            owner.otherCompleted(completion)
        }
    }
}
