// SPDX-License-Identifier: Apache-2.0
/// An `AsyncSequence` over the values of a publisher that can't fail.
///
/// `AsyncPublisher` conforms to `AsyncSequence`, so a publisher's elements can be received
/// with `for`-`await`-`in` instead of a subscriber. Get one from ``Publisher/values-1dm9r``.
///
/// ```swift
/// let numbers = [5, 4, 3, 2, 1, 0].publisher.filter { $0 % 2 == 0 }
/// for await number in numbers.values {
///     print(number, terminator: " ")
/// }
/// // Prints "4 2 0 "
/// ```
///
/// Each iterator subscribes once, when it is made, and asks for one element per call to
/// `next()`: a publisher that emits while no `next()` waits (a subject sending faster than
/// the loop body runs) has its element dropped, as with any subscriber without demand.
/// Cancelling the iterating task, or leaving the loop, cancels the subscription.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The sequence's element type: the publisher's `Output`.
    public typealias Element = P.Output

    /// The type of asynchronous iterator that produces elements of this sequence.
    public typealias AsyncIterator = Iterator

    private let publisher: P

    /// Creates a sequence whose iterators each subscribe to `publisher` and yield its values.
    ///
    /// ```swift
    /// let sequence = AsyncPublisher(subject)   // the same as subject.values
    /// ```
    ///
    /// - Parameter publisher: An upstream publisher.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Creates the asynchronous iterator that produces elements of this asynchronous
    /// sequence; it subscribes to the upstream publisher.
    ///
    /// ```swift
    /// var iterator = subject.values.makeAsyncIterator()
    /// let first = await iterator.next()
    /// ```
    public func makeAsyncIterator() -> Iterator {
        Iterator(lifetime: .subscribing(to: publisher))
    }

    /// Steps through the publisher's values, one `next()` call per value.
    ///
    /// ```swift
    /// var iterator = subject.values.makeAsyncIterator()
    /// while let value = await iterator.next() { print(value) }
    /// ```
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of element produced by this iterator.
        public typealias Element = P.Output

        private let lifetime: AsyncIterationLifetime<P.Output, Never>

        fileprivate init(lifetime: AsyncIterationLifetime<P.Output, Never>) {
            self.lifetime = lifetime
        }

        /// Requests one value from the publisher and waits for it.
        ///
        /// ```swift
        /// let value = await iterator.next()   // nil once the publisher has finished
        /// ```
        ///
        /// - Returns: The next published element, or `nil` if the publisher finishes
        ///   normally or the task is cancelled.
        public mutating func next() async -> P.Output? {
            // A publisher that cannot fail gives the iteration no error to throw.
            try? await lifetime.iteration.next()
        }
    }
}

/// An `AsyncSequence` over the values of a publisher that may fail, which ends by throwing the
/// publisher's error.
///
/// If the upstream publisher fails, the awaiting `next()` throws its error; after that,
/// and after a normal finish, `next()` returns `nil`. Get one from
/// ``Publisher/values-v7nz``.
///
/// ```swift
/// let parsed = ["1", "2", "x"].publisher.tryMap { text in
///     guard let number = Int(text) else { throw ParseError() }
///     return number
/// }
/// do {
///     for try await number in parsed.values { print(number) }   // 1, 2
/// } catch {
///     print("failed:", error)                                   // failed: ParseError()
/// }
/// ```
///
/// Demand and cancellation work as for ``AsyncPublisher``.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The sequence's element type: the publisher's `Output`.
    public typealias Element = P.Output

    /// The type of asynchronous iterator that produces elements of this sequence.
    public typealias AsyncIterator = Iterator

    private let publisher: P

    /// Creates a sequence whose iterators each subscribe to `publisher`, yield its values and
    /// throw its failure.
    ///
    /// ```swift
    /// let sequence = AsyncThrowingPublisher(request)   // the same as request.values
    /// ```
    ///
    /// - Parameter publisher: An upstream publisher.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Creates the asynchronous iterator that produces elements of this asynchronous
    /// sequence; it subscribes to the upstream publisher.
    ///
    /// ```swift
    /// var iterator = request.values.makeAsyncIterator()
    /// let first = try await iterator.next()
    /// ```
    public func makeAsyncIterator() -> Iterator {
        Iterator(lifetime: .subscribing(to: publisher))
    }

    /// Steps through the publisher's values, one `next()` call per value.
    ///
    /// ```swift
    /// var iterator = request.values.makeAsyncIterator()
    /// while let value = try await iterator.next() { print(value) }
    /// ```
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of element produced by this iterator.
        public typealias Element = P.Output

        private let lifetime: AsyncIterationLifetime<P.Output, P.Failure>

        fileprivate init(lifetime: AsyncIterationLifetime<P.Output, P.Failure>) {
            self.lifetime = lifetime
        }

        /// Requests one value from the publisher and waits for it.
        ///
        /// ```swift
        /// let value = try await iterator.next()   // throws the publisher's failure
        /// ```
        ///
        /// - Returns: The next published element, or `nil` if the publisher finishes
        ///   normally or the task is cancelled.
        /// - Throws: The error the publisher failed with.
        public mutating func next() async throws -> P.Output? {
            try await lifetime.iteration.next()
        }
    }
}

extension Publisher where Failure == Never {
    /// This publisher's values, to be read with `for await`.
    ///
    /// ```swift
    /// for await value in [1, 2, 3].publisher.values {
    ///     print(value)   // 1, 2, 3
    /// }
    /// ```
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

extension Publisher {
    /// This publisher's values, to be read with `for try await`; its failure is thrown by the
    /// loop.
    ///
    /// ```swift
    /// for try await value in Fail<Int, URLError>(error: URLError(.badURL)).values {
    ///     print(value)   // never reached: the loop throws the URLError
    /// }
    /// ```
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}
