// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Shares one subscription to this publisher among all subscribers, as `share()` does,
    /// and replays the latest `count` values (and the completion) to each new subscriber.
    ///
    /// ![A marble diagram of share(replay:), drawn from a run of it](marble-share-replay)
    ///
    /// ```
    /// upstream:     --1--2--3--   ---4--|
    /// subscriber A: --1--2--3--   ---4--|
    /// subscriber B:           [23]---4--|   (count 2, subscribed after 3)
    /// ```
    ///
    /// It is `multicast { ReplaySubject(bufferSize: count) }.autoconnect()`, as in CombineExt:
    /// the first subscriber connects the upstream; the subject, made once, keeps what it
    /// recorded for the whole life of the returned publisher.
    ///
    /// When all subscribers have left, the upstream subscription is cancelled. A later
    /// subscriber gets the recorded values replayed and connects the upstream again, whose new
    /// values go through the same subject. If the upstream had completed, a later subscriber
    /// gets the recorded values and the completion; the upstream is subscribed again but
    /// cancelled at once, before any request (a completed subject refuses new upstreams).
    ///
    /// Demand: the subject asks the upstream for `.unlimited`, whatever the subscribers ask
    /// for; each subscriber gets the replay and then the live values within its own demand.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let shared = subject.share(replay: 2)
    /// let first = shared.sink { print("A", $0) }
    /// subject.send(1)
    /// subject.send(2)
    /// subject.send(3)
    /// let second = shared.sink { print("B", $0) }     // replays 2 and 3
    /// subject.send(4)
    /// // Prints: A 1, A 2, A 3, B 2, B 3, A 4, B 4
    /// ```
    ///
    /// - Parameter count: How many of the latest values to replay to a new subscriber; a
    ///   negative count counts as 0 (only the completion is replayed).
    /// - Returns: A publisher (an auto-connecting `Publishers.Multicast` over a
    ///   ``ReplaySubject``) that shares this publisher's values and replays the latest `count`
    ///   of them.
    public func share(replay count: Int)
        -> Publishers.Autoconnect<Publishers.Multicast<Self, ReplaySubject<Output, Failure>>>
    {
        multicast { ReplaySubject(bufferSize: count) }.autoconnect()
    }
}
