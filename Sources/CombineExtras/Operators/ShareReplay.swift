import Combine

extension Publisher {
    /// Shares one subscription to this publisher among all subscribers, as `share()` does,
    /// and replays the latest `count` values (and the completion) to each new subscriber.
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
    public func share(replay count: Int)
        -> Publishers.Autoconnect<Publishers.Multicast<Self, ReplaySubject<Output, Failure>>>
    {
        multicast { ReplaySubject(bufferSize: count) }.autoconnect()
    }
}
