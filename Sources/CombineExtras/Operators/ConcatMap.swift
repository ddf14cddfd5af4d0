import Combine

extension Publishers {
    /// A publisher that maps each upstream value to a publisher and publishes their values one
    /// publisher after another, in the order of the upstream values. Made by
    /// `concatMap(_:)`.
    ///
    /// ```
    /// upstream:    -a--b------------|
    /// inner for a:  --1--2|
    /// inner for b:        --3--4|          (subscribed when a's inner finished)
    /// output:      ---1--2--3--4----|
    /// ```
    public struct ConcatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The kind of values this publisher publishes.
        public typealias Output = NewPublisher.Output

        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure
        /// The closure that makes an inner publisher from an upstream value.
        public typealias Transform = (Upstream.Output) -> NewPublisher

        /// The publisher whose values are mapped.
        public let upstream: Upstream
        /// Makes an inner publisher from an upstream value.
        public let transform: Transform

        /// Creates a publisher that concatenates the publishers `transform` makes from the
        /// upstream's values.
        public init(upstream: Upstream, transform: @escaping Transform) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // An unbounded buffer between the upstream and a one-at-a-time flatMap: the upstream
            // is asked for everything (so a subject's values are not dropped while an inner
            // publisher runs), the inner publishers wait in the buffer in order, and the
            // subscriber's demand goes to the running one.
            upstream
                .map(transform)
                .buffer(size: .max, prefetch: .byRequest, whenFull: .dropNewest)
                .flatMap(maxPublishers: .max(1)) { $0 }
                .subscribe(subscriber)
        }
    }
}

extension Publisher {
    /// Maps each value to a publisher and publishes the values of those publishers one after
    /// another: the next inner publisher is subscribed only once the previous one has finished,
    /// so the output keeps the order of the upstream values.
    ///
    /// ```swift
    /// // upstream:    -a--b------------|
    /// // inner for a:  --1--2|
    /// // inner for b:        --3--4|          (subscribed when a's inner finished)
    /// // concatMap:   ---1--2--3--4----|
    /// uploads.concatMap { file in upload(file) }   // one upload at a time, in order
    /// ```
    ///
    /// - Upstream values are requested without limit and wait, already mapped, until their turn
    ///   (`transform` runs as each value arrives), so a subject's values are not lost while an
    ///   inner publisher runs — as CombineExt's and RxSwift's `concatMap` do.
    /// - The subscriber's demand goes to the running inner publisher; demand it leaves unused
    ///   carries over to the next one. The subscriber never receives more than it requested.
    /// - It finishes when the upstream has finished and every inner publisher has finished. A
    ///   failure of the upstream or of an inner publisher fails it at once and cancels the rest.
    ///
    /// - Parameter transform: Makes the publisher whose values to publish for an upstream value.
    /// - Returns: A publisher of the inner publishers' values, one publisher after another.
    public func concatMap<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.ConcatMap<P, Self> where P.Failure == Failure {
        Publishers.ConcatMap(upstream: self, transform: transform)
    }
}
