// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A cancellable of erased type that, on its first cancellation, runs a closure or cancels another
/// cancellable.
///
/// An `AnyCancellable` calls ``cancel()`` when it is deinitialized, so keeping it alive
/// keeps a subscription alive:
///
/// ```swift
/// var cancellables = Set<AnyCancellable>()
/// subject.sink { print($0) }.store(in: &cancellables)
/// cancellables.removeAll()   // cancels the subscription
/// ```
///
/// ``cancel()`` may be called from any thread and any number of times; the wrapped
/// action runs once and is released right after.
public final class AnyCancellable: Cancellable, Hashable {
    // Written once in `init`, read and cleared only by the caller that wins `cancelled`: the
    // atomic already excludes, so no dynamic exclusivity checks.
    @exclusivity(unchecked) private var target: Target
    // After `target`: in front of it, the byte would cost seven bytes of padding.
    private let cancelled = Atomic<Bool>(false)

    /// What cancelling runs. One non-generic enum rather than two optionals: an
    /// `Optional<any Cancellable>` is a generic type whose metadata the runtime looks up on
    /// every copy and destroy (measured: about 300 instructions per `cancel()`).
    ///
    /// Two words at most: a cancellable that is an object (a `sink`, a subscription) is held as
    /// a reference with its conformance, any other in a box of its own (an existential is five
    /// words, and would make every `AnyCancellable` a malloc size class bigger).
    private enum Target {
        case none
        case action(() -> Void)
        case object(any Cancellable & AnyObject)
        indirect case canceller(any Cancellable)
    }

    /// Creates a cancellable that calls `cancel` the first time it is cancelled or when it is
    /// deinitialized, whichever comes first.
    public init(_ cancel: @escaping () -> Void) {
        target = .action(cancel)
    }

    /// Initializes the cancellable object with the given cancellable, whose ``cancel()``
    /// is called when this object is cancelled or deinitialized.
    public init<C: Cancellable>(_ canceller: C) {
        if let object = canceller as? any Cancellable & AnyObject {
            target = .object(object)
        } else {
            target = .canceller(canceller)
        }
    }

    /// Holds an object's cancel without the run-time cast the generic initialiser makes (a
    /// conformance look-up per subscription): for `sink` and `assign`, whose subscriber is
    /// known to be an object.
    @usableFromInline
    init(object: any Cancellable & AnyObject) {
        target = .object(object)
    }

    deinit {
        cancel()
    }

    /// Cancels the activity. Only the first call has an effect.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var target = Target.none
        swap(&target, &self.target)  // moved out: no copy of the existential and no second release
        switch consume target {
        case .none: break
        case .action(let action): action()
        case .object(let object): object.cancel()
        case .canceller(let canceller): canceller.cancel()
        }
    }

    /// Appends this instance to `collection`, which then keeps it, and what it cancels, alive.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Inserts this instance into `set`, which then keeps it, and what it cancels, alive.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Returns whether two type-erasing cancellables are the same instance.
    ///
    /// Two cancellables wrapping the same closure or the same subscriber are still different.
    ///
    /// - Parameters:
    ///   - lhs: A cancellable to compare.
    ///   - rhs: Another cancellable to compare.
    /// - Returns: `true` if both are the same object.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the identity of this instance, consistently with `==`.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
