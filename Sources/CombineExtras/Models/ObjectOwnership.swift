// SPDX-License-Identifier: Apache-2.0
/// How `assign(to:on:ownership:)` holds the object it assigns to.
public enum ObjectOwnership: Sendable, Hashable {
    /// The subscription keeps the object alive until it ends, like Apple's `assign(to:on:)`.
    case strong
    /// The subscription does not keep the object alive; values that arrive after the object is
    /// gone are ignored.
    case weak
    /// The subscription does not keep the object alive, and assumes it outlives the
    /// subscription: a value arriving after the object is gone is a programming error and
    /// traps (Swift's `unowned` rule).
    case unowned
}
