/// A publisher that provides an explicit means of connecting and canceling publication.
///
/// Nothing is published until ``connect()`` is called; cancelling the returned
/// `Cancellable` disconnects.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements, and returns an instance
    /// with which to cancel publishing.
    func connect() -> Cancellable
}
