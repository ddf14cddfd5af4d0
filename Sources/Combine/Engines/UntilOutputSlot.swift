// SPDX-License-Identifier: Apache-2.0

/// Where one side of `drop`/`prefix(untilOutputFrom:)` stands: waiting for its subscription,
/// subscribed, or done with.
enum UntilOutputSlot {
    case waiting
    case live(Subscription)
    case closed

    var subscription: Subscription? {
        if case .live(let subscription) = self { subscription } else { nil }
    }

    /// Takes `subscription` if this side waits for one.
    mutating func accept(_ subscription: Subscription) -> Bool {
        guard case .waiting = self else { return false }
        self = .live(subscription)
        return true
    }

    /// Closes both sides; returns their subscriptions, upstream first — the order Apple's
    /// cancels them in — for the caller to cancel after its lock.
    static func closeBoth(_ upstream: inout UntilOutputSlot, _ trigger: inout UntilOutputSlot) -> [Subscription] {
        defer { (upstream, trigger) = (.closed, .closed) }
        return [upstream.subscription, trigger.subscription].compactMap { $0 }
    }

    /// What a trigger's subscription gets: one value asked for, or a cancel if not accepted.
    static func start(_ subscription: Subscription, accepted: Bool) {
        if accepted { subscription.request(.max(1)) } else { subscription.cancel() }
    }
}
