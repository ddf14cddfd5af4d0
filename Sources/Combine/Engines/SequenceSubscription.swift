// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization
import Synchronization

/// Delivers the elements of a sequence within the demand, then a completion: the
/// subscription of `Publishers.Sequence` and `Record`.
///
/// Emission is a loop, not recursion: a `request` made from inside `receive(_:)` (or from
/// another thread while a loop runs) only adds demand, and the running loop picks it up.
/// A subscriber asking `.max(1)` per value over millions of values keeps a flat stack.
/// The completion follows the last element at once, without waiting for more demand.
///
/// `request` is reached through the `Subscription` protocol, where the subscriber's type is
/// unknown; the loop itself runs through `emitLoop`, a closure made in the (inlined,
/// specialised) initialiser, so it runs code specialised for the subscriber.
@usableFromInline
final class SequenceSubscription<Elements: Sequence, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Elements.Element {
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    // Touched only by the thread that set `emitting`.
    @usableFromInline @exclusivity(unchecked) var iterator: Elements.Iterator
    @usableFromInline @exclusivity(unchecked) var nextElement: Elements.Element?
    @usableFromInline let completion: Subscribers.Completion<Downstream.Failure>
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var emitting = false
    /// Set by ``cancel()``; read without the lock by the loop that emits under unlimited demand.
    @usableFromInline let cancelled = Atomic<Bool>(false)
    @usableFromInline let sequence: Elements
    /// Whether this is `Record`'s subscription (its mirror also shows the completion, and it
    /// describes itself as "Cancelled Events" once it has ended).
    @usableFromInline let isRecord: Bool

    /// `first` is the element already taken from `iterator` (the caller checked that the
    /// sequence is not empty).
    @usableFromInline let emitLoop: (SequenceSubscription) -> Void

    @inlinable
    init(
        sequence: Elements, iterator: Elements.Iterator, first: Elements.Element,
        completion: Subscribers.Completion<Downstream.Failure>, downstream: Downstream, isRecord: Bool
    ) {
        self.sequence = sequence
        self.iterator = iterator
        self.nextElement = first
        self.completion = completion
        self.downstream = downstream
        self.isRecord = isRecord
        self.emitLoop = { $0.emit() }
    }

    /// As Apple's: the sequence's own description while it runs, then a fixed one.
    @usableFromInline
    var description: String {
        guard !hasEnded else { return isRecord ? "Cancelled Events" : "Sequence" }
        return String(describing: sequence)
    }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// As Apple's: the sequence (empty once it has ended) and, for `Record`, the completion.
    @usableFromInline
    var customMirror: Mirror {
        let shown: Any = hasEnded ? [Elements.Element]() : sequence
        var children: [Mirror.Child] = [("sequence", shown)]
        if isRecord { children.append(("completion", completion)) }
        return Mirror(self, children: children)
    }

    @usableFromInline
    var hasEnded: Bool { lock.withLock { downstream == nil } }

    /// As Apple's, a request for `.none` is allowed here (and asks for nothing), unlike
    /// `Just`'s (recorded by the Apple-verified conformance suite).
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard demand != .none else { return }
        let start: Bool = lock.withLock {
            guard downstream != nil else { return false }
            self.demand += demand
            guard !emitting else { return false }
            emitting = true
            return true
        }
        if start { emitLoop(self) }
    }

    @usableFromInline
    enum Step {
        case send(Downstream, Elements.Element)
        case sendAll(Downstream, Elements.Element)
        case stop
    }

    @inlinable
    func emit() {
        while true {
            let step: Step = lock.withLock {
                guard let downstream, demand > 0, let element = nextElement else {
                    emitting = false
                    return .stop
                }
                nextElement = nil
                if demand == .unlimited { return .sendAll(downstream, element) }
                demand -= 1
                return .send(downstream, element)
            }
            let target: Downstream
            let element: Elements.Element
            switch step {
            case .stop:
                return
            case .sendAll(let receiver, let first):
                emitAll(to: receiver, from: first)
                return
            case .send(let receiver, let next):
                (target, element) = (receiver, next)
            }
            let more = target.receive(element)
            let following = iterator.next()
            let finished: Downstream? = lock.withLock {
                guard let current = self.downstream else { return nil }
                demand += more
                if let following {
                    nextElement = following
                    return nil
                }
                self.downstream = nil
                emitting = false
                return current
            }
            if let finished {
                finished.receive(completion: completion)
                return
            }
        }
    }

    /// Emits the rest of the sequence under unlimited demand: there is no demand to count,
    /// so the lock is not taken per element; a relaxed read of ``cancelled`` after each
    /// element stops the loop (a cancel from the subscriber's own `receive` is seen at once).
    /// A `sink` is called through its value closure (see `sinkValueHandler(of:)`).
    @inlinable
    func emitAll(to downstream: Downstream, from first: Elements.Element) {
        let receiveValue = sinkValueHandler(of: downstream)
        var element = first
        while true {
            if let receiveValue {
                receiveValue(element)
            } else {
                _ = downstream.receive(element)
            }
            if cancelled.load(ordering: .relaxed) { return }
            guard let following = iterator.next() else { break }
            element = following
        }
        let finished: Downstream? = lock.withLock {
            emitting = false
            defer { self.downstream = nil }
            return self.downstream
        }
        finished?.receive(completion: completion)
    }

    @usableFromInline
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        let released: Downstream? = lock.withLock {
            defer { downstream = nil }
            return downstream
        }
        withExtendedLifetime(released) {}
    }
}
