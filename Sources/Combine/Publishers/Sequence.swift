// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that sends the elements of a Swift sequence, in order, then finishes.
    ///
    /// It emits the elements within the subscriber's demand and finishes right after the
    /// last one; an empty sequence finishes on subscription.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.sink { print($0) }   // 1, 2, 3
    /// ```
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The element type of the sequence.
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher of the elements of `sequence`.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Elements.Element == S.Input {
            subscriber.receiveElements(of: sequence, then: .finished, isRecord: false)
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Sequence {
    /// A publisher that emits the elements of this sequence, then finishes.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

extension Subscriber {
    /// Subscribes to the elements of `sequence` followed by `completion`; completes on
    /// subscription when the sequence is empty.
    @inlinable
    func receiveElements<Elements: Swift.Sequence>(
        of sequence: Elements, then completion: Subscribers.Completion<Failure>, isRecord: Bool
    ) where Elements.Element == Input {
        var iterator = sequence.makeIterator()
        guard let first = iterator.next() else {
            receiveSubscriptionAndCompletion(completion)
            return
        }
        receive(
            subscription: SequenceSubscription<Elements, Self>(
                sequence: sequence, iterator: iterator, first: first, completion: completion, downstream: self,
                isRecord: isRecord))
    }
}
