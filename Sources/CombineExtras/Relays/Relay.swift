// SPDX-License-Identifier: Apache-2.0
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
    ///
    /// - Parameter publisher: The publisher whose values the relay accepts.
    /// - Returns: A cancellable that ends the binding when cancelled or released.
    func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never
}

extension Relay where Self: AnyObject {
    /// Feeds the values of `publisher` into this relay, until the returned cancellable is
    /// cancelled or released. The publisher's completion does not complete the relay, and the
    /// binding holds the relay weakly: it does not keep the relay alive.
    ///
    /// ```swift
    /// let relay = CurrentValueRelay(0)
    /// let binding = relay.subscribe([1, 2, 3].publisher)
    /// print(relay.value)
    /// // Prints: 3
    /// ```
    ///
    /// - Parameter publisher: The publisher whose values the relay accepts.
    /// - Returns: A cancellable that ends the binding when cancelled or released.
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable
    where P.Output == Output, P.Failure == Never {
        publisher.sink { [weak self] value in self?.accept(value) }
    }

    /// Feeds the values of another relay into this one (`self` receives what `relay` accepts);
    /// see ``subscribe(_:)-(P)``.
    ///
    /// - Parameter relay: The relay whose values this relay accepts.
    /// - Returns: A cancellable that ends the binding when cancelled or released.
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
    /// cancelled or released; the same as `relay.subscribe(self)`.
    ///
    /// This publisher is subscribed with unlimited demand, and each of its values is passed to
    /// the relay's `accept(_:)`. Its completion does not complete the relay. For a class relay
    /// (`PassthroughRelay`, `CurrentValueRelay`) the binding holds the relay weakly: it does
    /// not keep the relay alive.
    ///
    /// ```swift
    /// let relay = PassthroughRelay<Int>()
    /// let printing = relay.sink { print($0) }
    /// let binding = [1, 2, 3].publisher.subscribe(relay)
    /// // Prints: 1, 2, 3     (the relay stays open after the array finishes)
    /// ```
    ///
    /// - Parameter relay: The relay that receives this publisher's values.
    /// - Returns: A cancellable that ends the binding when cancelled or released.
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        relay.subscribe(self)
    }
}
