// SPDX-License-Identifier: Apache-2.0
// Reference 2 of the model tests: Apple's demand rules for the operators of `ModelOperator`,
// restated as small single-threaded classes over `Int`. Each stage does what Apple's
// operator does with demand:
// - a value an operator drops (filter, compactMap, removeDuplicates, drop(while:), the values
//   before output(in:)'s range) is replaced by asking upstream for one more;
// - dropFirst(n) asks upstream for n, plus what its subscriber asked for by then, as soon as
//   the upstream subscription comes (so n values are asked for even with no demand);
// - prefix/output(in:) and prefix(while:) cancel upstream and finish right after the last
//   value they publish (or at the first value that fails the test), without waiting for
//   demand; an empty range finishes on subscription;
// - collect(n) asks upstream for n per value asked of it and publishes a partial group on
//   finishing;
// - first(where:), last, reduce and count ask upstream for everything at once and publish
//   their result once the subscriber has asked for anything; with no result (first(where:)
//   matched nothing) the bare `.finished` waits for that request too; a failure passes at
//   once;
// - tryMap, on a throw, cancels upstream and fails;
// - catch, append and prepend carry the subscriber's outstanding demand over to the next
//   source; replaceError holds its replacement value until there is demand for it;
// - Publishers.Sequence finishes right after its last value, and at once when empty;
//   PassthroughSubject drops a value sent without demand and gives a late subscriber its
//   completion at once.

protocol ReferenceSubscription: AnyObject {
    func request(_ want: Want)
    func cancel()
}

protocol ReferenceSubscriber: AnyObject {
    func receive(subscription: ReferenceSubscription)
    func receive(_ value: Int) -> Want
    func receive(completion: ModelEnding)
}

/// Something to subscribe to: a source or a source with operators.
typealias ReferencePublisher = (ReferenceSubscriber) -> Void

/// Empties `reference` and returns what it held (to cancel it after the access ends).
func take(_ reference: inout ReferenceSubscription?) -> ReferenceSubscription? {
    defer { reference = nil }
    return reference
}

/// The subscription of a source that has nothing to send.
final class ReferenceEmptySubscription: ReferenceSubscription {
    func request(_ want: Want) {}
    func cancel() {}
}

// MARK: - Sources

func referenceSequence(_ values: [Int], ending: ModelEnding) -> ReferencePublisher {
    { subscriber in
        guard !values.isEmpty else {
            subscriber.receive(subscription: ReferenceEmptySubscription())
            subscriber.receive(completion: ending)
            return
        }
        subscriber.receive(subscription: ReferenceSequenceSubscription(values, ending: ending, downstream: subscriber))
    }
}

final class ReferenceSequenceSubscription: ReferenceSubscription {
    private let values: [Int]
    private let ending: ModelEnding
    private var downstream: ReferenceSubscriber?
    private var index = 0
    private var want = Want.none
    private var emitting = false

    init(_ values: [Int], ending: ModelEnding, downstream: ReferenceSubscriber) {
        self.values = values
        self.ending = ending
        self.downstream = downstream
    }

    func request(_ want: Want) {
        guard downstream != nil else { return }
        self.want = self.want + want
        guard !emitting else { return }  // a request from inside receive(_:): the loop below sees it
        emitting = true
        defer { emitting = false }
        while let downstream, !self.want.isZero, index < values.count {
            self.want.takeOne()
            index += 1
            let more = downstream.receive(values[index - 1])
            guard self.downstream != nil else { return }
            self.want = self.want + more
            if index == values.count {
                self.downstream = nil
                downstream.receive(completion: ending)
            }
        }
    }

    func cancel() { downstream = nil }
}

/// A `PassthroughSubject` with at most one subscriber at a time.
final class ReferenceSubject: ReferenceSubscription {
    private var downstream: ReferenceSubscriber?
    private var want = Want.none
    private var ending: ModelEnding?

    func subscribe(_ subscriber: ReferenceSubscriber) {
        if let ending {
            subscriber.receive(subscription: ReferenceEmptySubscription())
            subscriber.receive(completion: ending)
            return
        }
        downstream = subscriber
        subscriber.receive(subscription: self)
    }

    func send(_ value: Int) {
        guard ending == nil, let downstream, !want.isZero else { return }
        want.takeOne()
        let more = downstream.receive(value)
        if self.downstream != nil { want = want + more }
    }

    func send(completion: ModelEnding) {
        guard ending == nil else { return }
        ending = completion
        let downstream = self.downstream
        self.downstream = nil
        downstream?.receive(completion: completion)
    }

    func request(_ want: Want) {
        if downstream != nil { self.want = self.want + want }
    }

    func cancel() { downstream = nil }
}

// MARK: - Value-by-value operators

/// What a value-by-value operator does with one value.
enum ReferenceStep {
    case emit(Int)
    /// Drop it and ask upstream for another.
    case skip
    /// Drop it; its replacement was asked for in advance (dropFirst).
    case drop
    case emitAndFinish(Int)
    case finish
    case fail(Int)
}

final class ReferenceStepStage: ReferenceSubscriber, ReferenceSubscription {
    private let downstream: ReferenceSubscriber
    private let step: (Int) -> ReferenceStep
    private let requestsOnSubscription: Int
    private let finishesOnSubscription: Bool
    private var upstream: ReferenceSubscription?
    private var done = false
    /// What the subscriber asks for while it receives the subscription, when a stage asks
    /// upstream for `requestsOnSubscription` more once it has handed the subscription on.
    private var pending: Want?

    init(
        downstream: ReferenceSubscriber, requestsOnSubscription: Int = 0, finishesOnSubscription: Bool = false,
        step: @escaping (Int) -> ReferenceStep
    ) {
        self.downstream = downstream
        self.step = step
        self.requestsOnSubscription = requestsOnSubscription
        self.finishesOnSubscription = finishesOnSubscription
    }

    func receive(subscription: ReferenceSubscription) {
        upstream = subscription
        if requestsOnSubscription > 0 { pending = Want.none }
        downstream.receive(subscription: self)
        if let want = pending {
            pending = nil
            upstream?.request(want + .max(requestsOnSubscription))
        }
        if finishesOnSubscription { stop(.finished) }
    }

    func receive(_ value: Int) -> Want {
        guard !done else { return .none }
        switch step(value) {
        case .emit(let output): return downstream.receive(output)
        case .skip: return .max(1)
        case .drop: return .none
        case .emitAndFinish(let output):
            let want = downstream.receive(output)
            stop(.finished)
            return want
        case .finish: stop(.finished)
        case .fail(let code): stop(.failure(code))
        }
        return .none
    }

    func receive(completion: ModelEnding) {
        guard !done else { return }
        done = true
        upstream = nil
        downstream.receive(completion: completion)
    }

    private func stop(_ ending: ModelEnding) {
        guard !done else { return }
        done = true
        take(&upstream)?.cancel()
        downstream.receive(completion: ending)
    }

    func request(_ want: Want) {
        guard !finishesOnSubscription else { return }
        if let held = pending {
            pending = held + want
            return
        }
        upstream?.request(want)
    }

    func cancel() {
        done = true
        take(&upstream)?.cancel()
    }
}

// MARK: - collect(n)

final class ReferenceCollectStage: ReferenceSubscriber, ReferenceSubscription {
    private var downstream: ReferenceSubscriber?
    private var upstream: ReferenceSubscription?
    private var group: [Int] = []
    private let size: Int

    init(size: Int, downstream: ReferenceSubscriber) {
        self.size = size
        self.downstream = downstream
    }

    func receive(subscription: ReferenceSubscription) {
        upstream = subscription
        downstream?.receive(subscription: self)
    }

    func receive(_ value: Int) -> Want {
        guard let downstream else { return .none }
        group.append(value)
        guard group.count == size else { return .none }
        let full = group
        group = []
        return downstream.receive(modelFold(full)) * size
    }

    func receive(completion: ModelEnding) {
        guard let downstream else { return }
        self.downstream = nil
        upstream = nil
        if completion == .finished, !group.isEmpty { _ = downstream.receive(modelFold(group)) }
        group = []
        downstream.receive(completion: completion)
    }

    func request(_ want: Want) { upstream?.request(want * size) }

    func cancel() {
        downstream = nil
        take(&upstream)?.cancel()
    }
}

// MARK: - first(where:), last, reduce, count

final class ReferenceReduceStage: ReferenceSubscriber, ReferenceSubscription {
    private enum Phase {
        case reducing(ReferenceSubscription?)
        case holding(Int?)
        case done
    }

    private let downstream: ReferenceSubscriber
    /// Takes a value in; `true` when the result is settled (first(where:)).
    private let take: (Int) -> Bool
    private let result: () -> Int?
    private var phase = Phase.reducing(nil)
    private var demanded = false

    init(downstream: ReferenceSubscriber, take: @escaping (Int) -> Bool, result: @escaping () -> Int?) {
        self.downstream = downstream
        self.take = take
        self.result = result
    }

    func receive(subscription: ReferenceSubscription) {
        phase = .reducing(subscription)
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ value: Int) -> Want {
        guard case .reducing = phase else { return .none }
        if take(value) { conclude(cancellingUpstream: true) }
        return .none
    }

    func receive(completion: ModelEnding) {
        switch completion {
        case .finished: conclude(cancellingUpstream: false)
        case .failure:
            guard case .reducing = phase else { return }
            phase = .done
            downstream.receive(completion: completion)
        }
    }

    private func conclude(cancellingUpstream: Bool) {
        guard case .reducing(let upstream) = phase else { return }
        let value = result()
        phase = demanded ? .done : .holding(value)
        if cancellingUpstream { upstream?.cancel() }
        if case .done = phase {
            if let value { _ = downstream.receive(value) }
            downstream.receive(completion: .finished)
        }
    }

    func request(_ want: Want) {
        demanded = true
        guard case .holding(let value) = phase else { return }
        phase = .done
        if let value { _ = downstream.receive(value) }
        downstream.receive(completion: .finished)
    }

    func cancel() {
        let previous = phase
        phase = .done
        if case .reducing(let upstream) = previous { upstream?.cancel() }
    }
}

// MARK: - replaceError(with:)

final class ReferenceReplaceErrorStage: ReferenceSubscriber, ReferenceSubscription {
    private var downstream: ReferenceSubscriber?
    private var upstream: ReferenceSubscription?
    private let replacement: Int
    private var want = Want.none
    private var holding = false

    init(replacement: Int, downstream: ReferenceSubscriber) {
        self.replacement = replacement
        self.downstream = downstream
    }

    func receive(subscription: ReferenceSubscription) {
        upstream = subscription
        downstream?.receive(subscription: self)
    }

    func receive(_ value: Int) -> Want {
        guard let downstream, !holding else { return .none }
        want.takeOne()
        let more = downstream.receive(value)
        want = want + more
        return more
    }

    func receive(completion: ModelEnding) {
        guard let downstream, !holding else { return }
        upstream = nil
        if completion != .finished, want.isZero {
            holding = true
            return
        }
        self.downstream = nil
        if completion != .finished { _ = downstream.receive(replacement) }
        downstream.receive(completion: .finished)
    }

    func request(_ want: Want) {
        guard let downstream else { return }
        self.want = self.want + want
        if holding {
            holding = false
            self.downstream = nil
            _ = downstream.receive(replacement)
            downstream.receive(completion: .finished)
            return
        }
        upstream?.request(want)
    }

    func cancel() {
        downstream = nil
        take(&upstream)?.cancel()
    }
}

// MARK: - catch, append, prepend

/// One source after another: `first`, then — depending on how it ended — `next`.
final class ReferenceSuccession: ReferenceSubscription {
    private var downstream: ReferenceSubscriber?
    /// The source to continue with after the first one ends so; `nil` ends the chain.
    private let next: (ModelEnding) -> ReferencePublisher?
    private var source: ReferenceSubscription?
    private var generation = 0
    private var want = Want.none

    init(downstream: ReferenceSubscriber, next: @escaping (ModelEnding) -> ReferencePublisher?) {
        self.downstream = downstream
        self.next = next
    }

    func start(with first: ReferencePublisher) {
        downstream?.receive(subscription: self)
        first(Child(owner: self, generation: 0))
    }

    func request(_ want: Want) {
        guard downstream != nil else { return }
        self.want = self.want + want
        source?.request(want)
    }

    func cancel() {
        downstream = nil
        take(&source)?.cancel()
    }

    fileprivate func subscribed(_ subscription: ReferenceSubscription, generation: Int) {
        guard downstream != nil, generation == self.generation, source == nil else {
            subscription.cancel()
            return
        }
        source = subscription
        if !want.isZero { subscription.request(want) }
    }

    fileprivate func received(_ value: Int, generation: Int) -> Want {
        guard generation == self.generation, let downstream else { return .none }
        want.takeOne()
        let more = downstream.receive(value)
        want = want + more
        return more
    }

    fileprivate func completed(_ ending: ModelEnding, generation: Int) {
        guard generation == self.generation, let downstream else { return }
        if generation == 0, let following = next(ending) {
            self.generation += 1
            source = nil
            following(Child(owner: self, generation: self.generation))
            return
        }
        self.downstream = nil
        source = nil
        downstream.receive(completion: ending)
    }

    private final class Child: ReferenceSubscriber {
        let owner: ReferenceSuccession
        let generation: Int

        init(owner: ReferenceSuccession, generation: Int) {
            self.owner = owner
            self.generation = generation
        }

        func receive(subscription: ReferenceSubscription) { owner.subscribed(subscription, generation: generation) }
        func receive(_ value: Int) -> Want { owner.received(value, generation: generation) }
        func receive(completion: ModelEnding) { owner.completed(completion, generation: generation) }
    }
}
