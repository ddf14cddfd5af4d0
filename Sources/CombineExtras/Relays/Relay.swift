import Combine

/// A publisher that outside code feeds with ``accept(_:)``: like a `Subject`, except that it
/// cannot fail and cannot be finished by a caller. Its subscribers get `.finished` only when
/// the relay itself is deallocated (as CombineExt's relays do).
///
/// ```swift
/// // accept:     --1--2--3--      (no completion while the relay lives)
/// // subscriber: --1--2--3--|     (`|`: the relay was deallocated)
/// let taps = PassthroughRelay<Void>()
/// let cancellable = taps.sink { print("tapped") }
/// taps.accept()
/// ```
public protocol Relay<Output>: Publisher where Failure == Never {
    /// Sends `value` to the relay's subscribers.
    func accept(_ value: Output)

    /// Feeds the values of `publisher` into this relay, until the returned cancellable is
    /// cancelled or released. The publisher's completion does not complete the relay.
    func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never
}

extension Relay where Self: AnyObject {
    /// Feeds the values of `publisher` into this relay, until the returned cancellable is
    /// cancelled or released. The publisher's completion does not complete the relay, and the
    /// binding holds the relay weakly: it does not keep the relay alive.
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable
    where P.Output == Output, P.Failure == Never {
        publisher.sink { [weak self] value in self?.accept(value) }
    }

    /// Feeds the values of another relay into this one (`self` receives what `relay` accepts);
    /// see ``subscribe(_:)-(P)``.
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        relay.sink { [weak self] value in self?.accept(value) }
    }
}

extension Relay where Output == Void {
    /// Sends `()` to the relay's subscribers.
    public func accept() {
        accept(())
    }
}

extension Publisher where Failure == Never {
    /// Feeds the values of this publisher into `relay`, until the returned cancellable is
    /// cancelled or released; see ``Relay/subscribe(_:)``.
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        relay.subscribe(self)
    }
}
