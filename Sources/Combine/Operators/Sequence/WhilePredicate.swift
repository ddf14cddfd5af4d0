extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure
    /// returns false.
    ///
    /// ```
    /// upstream:               --1--2--5--1--|
    /// drop(while: { $0 < 3 }): --------5--1--|
    /// ```
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that omits elements until the predicate returns false.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<WhileStepper<Output, Failure>, Failure, S>(
                    WhileStepper(mode: .drop) { .success(predicate($0)) }, downstream: subscriber, name: "DropWhile",
                    edges: .lenient(values: .ignore, completion: .ignore, ownEnd: .ignore, zeroDemandTraps: true),
                    reflection: .empty,
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that omits elements from an upstream publisher until a given
    /// error-throwing closure returns false.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that omits elements until the error-throwing predicate
        /// returns false.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<WhileStepper<Output, any Error>, Upstream.Failure, S>(
                    WhileStepper(mode: .drop) { input in Result { try predicate(input) } }, downstream: subscriber,
                    name: "TryDropWhile",
                    edges: .lenient(values: .ignore, completion: .ignore, ownEnd: .ignore, zeroDemandTraps: true),
                    reflection: .empty, convertFailure: anyFailure))
        }
    }

    /// A publisher that republishes elements while a predicate closure indicates publishing
    /// should continue.
    ///
    /// ```
    /// upstream:                 --1--2--5--1--|
    /// prefix(while: { $0 < 3 }): --1--2--|
    /// ```
    ///
    /// The first element that fails the predicate cancels the upstream and finishes.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes elements while the predicate holds.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<WhileStepper<Output, Failure>, Failure, S>(
                    WhileStepper(mode: .prefix) { .success(predicate($0)) }, downstream: subscriber,
                    name: "PrefixWhile", edges: .strict, reflection: .downstream(state: nil),
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that republishes elements while an error-throwing predicate closure
    /// indicates publishing should continue.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes elements while the error-throwing predicate
        /// holds.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<WhileStepper<Output, any Error>, Upstream.Failure, S>(
                    WhileStepper(mode: .prefix) { input in Result { try predicate(input) } }, downstream: subscriber,
                    name: "TryPrefixWhile", edges: .strict, reflection: .downstream(state: nil),
                    convertFailure: anyFailure))
        }
    }
}

/// The stepper of `drop(while:)` and `prefix(while:)` and their `try` forms.
@usableFromInline
struct WhileStepper<Element, Failure: Error>: ValueStepper {
    @usableFromInline
    enum Mode {
        /// Skip while the predicate holds, then pass everything.
        case drop
        /// Pass while the predicate holds, then finish.
        case prefix
    }

    @usableFromInline let mode: Mode
    @usableFromInline let predicate: (Element) -> Result<Bool, Failure>
    @usableFromInline var predicateDone = false

    @inlinable
    init(mode: Mode, predicate: @escaping (Element) -> Result<Bool, Failure>) {
        self.mode = mode
        self.predicate = predicate
    }

    @inlinable
    mutating func step(_ input: Element) -> ValueStep<Element, Failure> {
        if predicateDone { return .emit(input) }
        switch (predicate(input), mode) {
        case (.failure(let error), _):
            return .fail(error)
        case (.success(true), .drop):
            return .skip
        case (.success(false), .drop):
            predicateDone = true
            return .emit(input)
        case (.success(true), .prefix):
            return .emit(input)
        case (.success(false), .prefix):
            return .finish
        }
    }
}

extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns false,
    /// before republishing all remaining elements.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Omits elements from the upstream publisher until an error-throwing closure returns
    /// false, before republishing all remaining elements.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }

    /// Republishes elements while a predicate closure indicates publishing should continue.
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Republishes elements while an error-throwing predicate closure indicates publishing
    /// should continue.
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}
