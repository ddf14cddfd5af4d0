// SPDX-License-Identifier: Apache-2.0
/// A type whose work, such as a subscription, can be stopped early.
///
/// ``cancel()`` ends the work and lets go of what it holds; whatever the work was doing in
/// the background, a timer, a request or a file read, stops with it.
public protocol Cancellable {
    /// Cancel the activity.
    func cancel()
}

extension Cancellable {
    /// Wraps this instance in an ``AnyCancellable`` and appends it to `collection`.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Wraps this instance in an ``AnyCancellable`` and inserts it into `set`.
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}
