// SPDX-License-Identifier: Apache-2.0
/// A publisher that stays idle, even with subscribers attached, until it is told to connect.
///
/// Nothing is published until ``connect()`` is called; cancelling the returned
/// `Cancellable` disconnects.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Starts the publisher's work and returns a cancellable that ends it.
    ///
    /// A connectable publisher lets subscribers attach without starting any work; calling
    /// `connect()` starts it. For ``Publishers/Multicast`` and ``Publishers/MakeConnectable``
    /// that means subscribing the subject to the upstream, so every subscriber attached by
    /// then sees the first value. Cancelling the returned value disconnects; subscribers that
    /// stay attached receive nothing more, and no completion.
    ///
    /// ```swift
    /// let connectable = [1, 2, 3].publisher.makeConnectable()
    /// let subscription = connectable.sink { print($0) }   // nothing yet
    /// let connection = connectable.connect()
    /// // Prints: 1, 2, 3
    /// ```
    ///
    /// - Returns: A `Cancellable` that ends the connection to the upstream when cancelled.
    func connect() -> Cancellable
}
