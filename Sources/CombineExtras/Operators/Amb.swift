// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension Publisher {
    /// Mirrors whichever of this publisher and `other` emits first — a value or a completion —
    /// and cancels the other one at once ("ambiguous": the first to speak wins).
    ///
    /// ![A marble diagram of amb(_:), drawn from a run of it](marble-amb)
    ///
    /// ```
    /// self:  -----1---2---|
    /// other: ---a---b-----|
    /// out:   ---a---b-----|      (other spoke first; self was cancelled at `a`)
    /// ```
    ///
    /// Both publishers are subscribed at once, in order, and each is asked for one value: the
    /// race. Demand the subscriber requests before the race is decided is remembered and
    /// passed to the winner when it is, less the one value the race asked it for; from then
    /// on the operator is a pass-through. A winning value that arrives before the subscriber
    /// has asked for anything waits for its demand (and the winner's completion behind it).
    /// A publisher that emits while being subscribed (`Just`, `Empty`) wins before the later
    /// ones are subscribed, and those are then not subscribed at all. The result completes
    /// or fails when the winner does.
    ///
    /// ```swift
    /// let primary = PassthroughSubject<String, Never>()
    /// let mirror = PassthroughSubject<String, Never>()
    /// let cancellable = primary.amb(mirror).sink { print($0) }
    /// mirror.send("m1")      // mirror wins; primary is cancelled
    /// primary.send("p1")     // ignored
    /// mirror.send("m2")
    /// // Prints: m1, m2
    /// ```
    ///
    /// - Parameter other: The publisher racing this one.
    /// - Returns: A `Publishers.Amb` publisher that publishes the events of whichever of the
    ///   two publishers emits first.
    public func amb<Other: Publisher>(_ other: Other) -> Publishers.Amb<Self, Other>
    where Other.Output == Output, Other.Failure == Failure {
        Publishers.Amb(first: self, second: other)
    }

    /// Mirrors whichever of this publisher and `others` emits first, as ``amb(_:)`` does
    /// for two.
    ///
    /// ![A marble diagram of amb(with:), drawn from a run of it](marble-amb-many)
    ///
    /// ```
    /// self:      -----1---2-|
    /// others[0]: ---a---b---|
    /// others[1]: ------x----|
    /// out:       ---a---b---|   (others[0] spoke first; the rest were cancelled at `a`)
    /// ```
    ///
    /// This publisher and `others` are subscribed in that order, each asked for one value;
    /// demand and completion follow ``amb(_:)``.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<Int, Never>()
    /// let c = PassthroughSubject<Int, Never>()
    /// let cancellable = a.amb(with: b, c).sink { print($0) }
    /// c.send(1)     // c wins; a and b are cancelled
    /// a.send(2)     // ignored
    /// c.send(3)
    /// // Prints: 1, 3
    /// ```
    ///
    /// - Parameter others: The publishers racing this one, subscribed after it in this order.
    /// - Returns: A type-erased publisher of the events of whichever publisher emits first.
    public func amb<Other: Publisher>(with others: Other...) -> AnyPublisher<Output, Failure>
    where Other.Output == Output, Other.Failure == Failure {
        amb(with: others)
    }

    /// Mirrors whichever of this publisher and `others` emits first, as ``amb(_:)`` does
    /// for two.
    ///
    /// ![A marble diagram of amb(with:), drawn from a run of it](marble-amb-many)
    ///
    /// ```
    /// self:      ----1--|
    /// others[0]: ------x|
    /// others[1]: --#
    /// out:       --#        (a failure speaks too: the others were cancelled at `#`)
    /// ```
    ///
    /// This publisher and the publishers of `others` are subscribed in that order, each asked
    /// for one value; demand and completion follow ``amb(_:)``. With an empty `others`, the
    /// result mirrors this publisher alone.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<Int, Never>()
    /// let c = PassthroughSubject<Int, Never>()
    /// let cancellable = a.amb(with: [b, c]).sink { print($0) }
    /// b.send(1)     // b wins; a and c are cancelled
    /// c.send(2)     // ignored
    /// b.send(3)
    /// // Prints: 1, 3
    /// ```
    ///
    /// - Parameter others: The publishers racing this one, subscribed after it in the
    ///   collection's order.
    /// - Returns: A type-erased publisher of the events of whichever publisher emits first.
    public func amb<Others: Collection>(with others: Others) -> AnyPublisher<Output, Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        AmbMany(contenders: erased(with: others)).eraseToAnyPublisher()
    }
}

extension Collection where Element: Publisher {
    /// Mirrors whichever publisher of the collection emits first — a value or a completion —
    /// and cancels the others at once; see ``Combine/Publisher/amb(_:)``.
    ///
    /// ![A marble diagram of amb(), drawn from a run of it](marble-amb-collection)
    ///
    /// ```
    /// [0]: -----1---|
    /// [1]: ---a---b-|
    /// [2]: -------x-|
    /// out: ---a---b-|
    /// ```
    ///
    /// An empty collection gives a publisher that finishes at once.
    public func amb() -> AnyPublisher<Element.Output, Element.Failure> {
        isEmpty ? Empty().eraseToAnyPublisher() : AmbMany(contenders: Array(self)).eraseToAnyPublisher()
    }
}

extension Publishers {
    /// A publisher that mirrors whichever of two publishers emits first; see
    /// ``Combine/Publisher/amb(_:)``.
    ///
    /// ```
    /// first:  -----1--|
    /// second: --a---b-|
    /// out:    --a---b-|   (second spoke first; first was cancelled at `a`)
    /// ```
    public struct Amb<First: Publisher, Second: Publisher>: Publisher
    where First.Output == Second.Output, First.Failure == Second.Failure {
        /// The kind of values this publisher publishes.
        public typealias Output = First.Output
        /// The failure type shared by both contenders.
        public typealias Failure = First.Failure

        /// The first contender.
        public let first: First
        /// The second contender.
        public let second: Second

        /// Creates a publisher that mirrors whichever of `first` and `second` emits first.
        public init(first: First, second: Second) {
            self.first = first
            self.second = second
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            AmbSubscription.race(for: subscriber, contenders: 2) { contender in
                if contender.index == 0 {
                    first.receive(subscriber: contender)
                } else {
                    second.receive(subscriber: contender)
                }
            }
        }
    }
}

/// The race among the publishers of a collection, for ``Combine/Collection/amb()`` and
/// ``Combine/Publisher/amb(with:)-(Others)``.
private struct AmbMany<Contender: Publisher>: Publisher {
    typealias Output = Contender.Output
    typealias Failure = Contender.Failure

    let contenders: [Contender]

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        AmbSubscription.race(for: subscriber, contenders: contenders.count) { contender in
            contenders[contender.index].receive(subscriber: contender)
        }
    }
}

/// The subscription of every `amb` form: subscribes the contenders, asks each for one value,
/// and when the first event arrives cancels the others and passes the remembered demand to
/// the winner.
private final class AmbSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let delivery: DownstreamQueue<Downstream>
    private let lock = Lock()
    private var subscriptions: [Subscription?]
    private var winner: Int?
    /// Demand requested before the race was decided.
    private var pending = Subscribers.Demand.none
    /// Whether the winner's race request (one value) is still to be subtracted from the
    /// demand passed on to it: it won with a value that the subscriber had not asked for.
    private var raceRequestUnpaid = false
    private var ended = false

    private init(downstream: Downstream, contenders: Int) {
        delivery = DownstreamQueue(downstream)
        subscriptions = Array(repeating: nil, count: contenders)
    }

    var description: String { "Amb" }

    /// Hands `downstream` the race's subscription, then subscribes the contenders in order
    /// through `subscribe`, until one of them has won or the subscriber has cancelled.
    static func race(
        for downstream: Downstream, contenders count: Int, subscribe: (Contender) -> Void
    ) {
        let race = AmbSubscription(downstream: downstream, contenders: count)
        downstream.receive(subscription: race)
        for index in 0..<count {
            guard race.isUndecided else { return }
            subscribe(Contender(race: race, index: index))
        }
    }

    private var isUndecided: Bool {
        lock.withLock { winner == nil && !ended }
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        let added = delivery.request(demand)
        passOn(demand + added)
    }

    func cancel() {
        let subscriptions: [Subscription?] = lock.withLock {
            ended = true
            defer { self.subscriptions = [] }
            return self.subscriptions
        }
        for case let subscription? in subscriptions { subscription.cancel() }
        delivery.cancel()
    }

    // MARK: Contenders' events

    fileprivate func attach(_ subscription: Subscription, at index: Int) {
        let joined: Bool = lock.withLock {
            guard !ended, winner == nil else { return false }
            subscriptions[index] = subscription
            return true
        }
        if joined {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    fileprivate func receive(_ value: Output, from index: Int) -> Subscribers.Demand {
        switch settle(index, byValue: true) {
        case .ignored:
            return .none
        case .won(let remembered):
            return passable(remembered + delivery.send(value))
        case .passThrough:
            return passable(delivery.send(value))
        }
    }

    fileprivate func receive(completion: Subscribers.Completion<Failure>, from index: Int) {
        if case .ignored = settle(index, byValue: false) { return }
        lock.withLock {
            ended = true
            subscriptions = []
        }
        delivery.send(completion: completion)
    }

    private enum Settlement {
        /// A loser's event, or one after the race ended.
        case ignored
        /// The event decided the race; the demand remembered until then is the winner's.
        case won(remembered: Subscribers.Demand)
        /// The winner's event after the decision.
        case passThrough
    }

    /// Decides the race for `index` if it is undecided, and cancels the other contenders.
    private func settle(_ index: Int, byValue: Bool) -> Settlement {
        let decided: (Settlement, [Subscription]) = lock.withLock {
            guard !ended else { return (.ignored, []) }
            if let winner { return (winner == index ? .passThrough : .ignored, []) }
            winner = index
            raceRequestUnpaid = byValue
            defer { pending = .none }
            var losers: [Subscription] = []
            for other in subscriptions.indices where other != index {
                if let loser = subscriptions[other] { losers.append(loser) }
                subscriptions[other] = nil
            }
            return (.won(remembered: pending), losers)
        }
        for loser in decided.1 { loser.cancel() }
        return decided.0
    }

    /// Passes demand to the winner, or remembers it while the race is undecided.
    private func passOn(_ demand: Subscribers.Demand) {
        let target: (Subscription, Subscribers.Demand)? = lock.withLock {
            guard !ended else { return nil }
            guard let winner else {
                pending += demand
                return nil
            }
            guard let subscription = subscriptions[winner] else { return nil }
            return (subscription, passableLocked(demand))
        }
        if let (subscription, demand) = target, demand > 0 { subscription.request(demand) }
    }

    private func passable(_ demand: Subscribers.Demand) -> Subscribers.Demand {
        lock.withLock { passableLocked(demand) }
    }

    /// `demand` less the winner's unpaid race request, which it settles. Called with the lock held.
    private func passableLocked(_ demand: Subscribers.Demand) -> Subscribers.Demand {
        guard raceRequestUnpaid, demand > 0 else { return demand }
        raceRequestUnpaid = false
        return demand - 1
    }

    /// The subscriber each contender is given.
    fileprivate final class Contender: Subscriber, CustomStringConvertible {
        typealias Input = Output

        private let race: AmbSubscription
        let index: Int

        init(race: AmbSubscription, index: Int) {
            self.race = race
            self.index = index
        }

        var description: String { "Amb" }

        func receive(subscription: Subscription) {
            race.attach(subscription, at: index)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            race.receive(input, from: index)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            race.receive(completion: completion, from: index)
        }
    }
}
