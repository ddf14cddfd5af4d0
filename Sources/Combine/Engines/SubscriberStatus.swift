// SPDX-License-Identifier: Apache-2.0
/// Where a subscriber stands with its subscription. Not nested in a generic subscriber, so
/// code that runs unspecialised (a `cancel()` reached through `any Cancellable`) can store and
/// read it without looking up metadata.
@usableFromInline
enum SubscriberStatus {
    case awaitingSubscription
    case subscribed(Subscription)
    case terminal
}
