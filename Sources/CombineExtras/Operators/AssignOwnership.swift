// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher where Failure == Never {
    /// Assigns each value to a property of an object, holding the object strongly, weakly or
    /// unowned.
    ///
    /// ```swift
    /// // upstream: -a--b--c-|
    /// // object:   -a--b--c         (object.property after each value)
    /// model.$name.assign(to: \.title, on: viewController, ownership: .weak)
    /// ```
    ///
    /// With `.strong` (the default) this is Apple's `assign(to:on:)`: the subscription keeps the
    /// object alive until it is cancelled or the upstream finishes — a cycle when the object
    /// keeps the cancellable. With `.weak` the object is not kept alive, and values arriving
    /// after it is gone are ignored (the subscription stays until cancelled or finished). With
    /// `.unowned` the object is not kept alive and must outlive the subscription.
    ///
    /// The subscriber asks for unlimited demand.
    ///
    /// - Parameters:
    ///   - keyPath: The property to assign.
    ///   - object: The object to assign to.
    ///   - ownership: How the subscription holds `object`.
    /// - Returns: A cancellable that ends the assignments when cancelled or released.
    public func assign<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root, ownership: ObjectOwnership = .strong
    ) -> AnyCancellable {
        switch ownership {
        case .strong:
            return assign(to: keyPath, on: object)
        case .weak:
            return sink { [weak object] value in
                object?[keyPath: keyPath] = value
            }
        case .unowned:
            return sink { [unowned object] value in
                object[keyPath: keyPath] = value
            }
        }
    }
}
