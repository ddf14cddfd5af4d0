// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that reads one property, through a key path, from each upstream value and
    /// publishes it.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream

        /// Where to find, in each upstream value, the property that is published.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
            let keyPath = self.keyPath
            upstream.subscribe(
                KeyPathReader(downstream: subscriber, keyPaths: [keyPath]) { $0[keyPath: keyPath] })
        }
    }

    /// A publisher that reads two properties, through key paths, from each upstream value and
    /// publishes them together as a tuple.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// The two properties read from one upstream value.
        public typealias Output = (Output0, Output1)
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream

        /// Where to find the property that goes first in each tuple.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// Where to find the property that goes second in each tuple.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == (Output0, Output1), Upstream.Failure == S.Failure {
            let (keyPath0, keyPath1) = (self.keyPath0, self.keyPath1)
            upstream.subscribe(
                KeyPathReader(downstream: subscriber, keyPaths: [keyPath0, keyPath1]) {
                    ($0[keyPath: keyPath0], $0[keyPath: keyPath1])
                })
        }
    }

    /// A publisher that reads three properties, through key paths, from each upstream value and
    /// publishes them together as a tuple.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// The three properties read from one upstream value.
        public typealias Output = (Output0, Output1, Output2)
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream

        /// Where to find the property that goes first in each tuple.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// Where to find the property that goes second in each tuple.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Where to find the property that goes third in each tuple.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == (Output0, Output1, Output2), Upstream.Failure == S.Failure {
            let (keyPath0, keyPath1, keyPath2) = (self.keyPath0, self.keyPath1, self.keyPath2)
            upstream.subscribe(
                KeyPathReader(downstream: subscriber, keyPaths: [keyPath0, keyPath1, keyPath2]) {
                    ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
                })
        }
    }
}

/// The subscriber of `map(_:)` with key paths: passes the subscription and the completion
/// straight through and publishes what `read` takes from each value. As Apple's, it describes
/// itself as `ValueForKey` (one key path) or `ValueForKeys` (two or three), and reflects its key
/// paths as `keyPath`, or `keyPath0`, `keyPath1`, `keyPath2`.
struct KeyPathReader<Input, Downstream: Subscriber>: ForwardingSubscriber {
    typealias Failure = Downstream.Failure

    let downstream: Downstream
    let keyPaths: [AnyKeyPath]
    let read: (Input) -> Downstream.Input
    let combineIdentifier = CombineIdentifier()

    init(downstream: Downstream, keyPaths: [AnyKeyPath], read: @escaping (Input) -> Downstream.Input) {
        self.downstream = downstream
        self.keyPaths = keyPaths
        self.read = read
    }

    var description: String { keyPaths.count == 1 ? "ValueForKey" : "ValueForKeys" }

    var customMirror: Mirror {
        let children: [Mirror.Child] =
            keyPaths.count == 1
            ? [("keyPath", keyPaths[0])]
            : keyPaths.enumerated().map { ("keyPath\($0.offset)", $0.element) }
        return Mirror(self, children: children)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(read(input))
    }
}

extension Publisher {
    /// Publishes, for each value, the property that `keyPath` names.
    ///
    /// ![A marble diagram of map(_:), drawn from a run of it](marble-map-keyPath)
    ///
    /// For each element, the property at `keyPath` is read and published in the element's
    /// place; the completion passes through unchanged, and so do requests and the cancel (as
    /// with ``Publishers/Map``, the upstream's subscription goes straight to the subscriber).
    ///
    /// ```swift
    /// struct Player { var name: String; var score: Int }
    ///
    /// let players = PassthroughSubject<Player, Never>()
    /// let cancellable = players.map(\.name).sink { print($0) }
    /// players.send(Player(name: "Ada", score: 3))
    /// // Prints: Ada
    /// ```
    ///
    /// - Parameter keyPath: The key path of the property to read from each element.
    /// - Returns: A ``Publishers/MapKeyPath`` that publishes the property's values.
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Publishes, for each value, a tuple of the properties that `keyPath0` and `keyPath1` name.
    ///
    /// ![A marble diagram of map(_:_:), drawn from a run of it](marble-map-keyPath2)
    ///
    /// For each element, both properties are read and published together as one tuple; the
    /// completion, requests and the cancel pass through unchanged.
    ///
    /// ```swift
    /// struct Player { var name: String; var score: Int }
    ///
    /// let players = PassthroughSubject<Player, Never>()
    /// let cancellable = players.map(\.name, \.score).sink { print($0) }
    /// players.send(Player(name: "Ada", score: 3))
    /// // Prints: ("Ada", 3)
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath0: The key path of the first property to read.
    ///   - keyPath1: The key path of the second property to read.
    /// - Returns: A ``Publishers/MapKeyPath2`` that publishes a tuple of the two values.
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Publishes, for each value, a tuple of the properties that `keyPath0`, `keyPath1` and
    /// `keyPath2` name.
    ///
    /// ![A marble diagram of map(_:_:_:), drawn from a run of it](marble-map-keyPath3)
    ///
    /// For each element, the three properties are read and published together as one tuple;
    /// the completion, requests and the cancel pass through unchanged.
    ///
    /// ```swift
    /// struct Point { var x: Int; var y: Int; var z: Int }
    ///
    /// let points = PassthroughSubject<Point, Never>()
    /// let cancellable = points.map(\.x, \.y, \.z).sink { print($0) }
    /// points.send(Point(x: 1, y: 2, z: 3))
    /// // Prints: (1, 2, 3)
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath0: The key path of the first property to read.
    ///   - keyPath1: The key path of the second property to read.
    ///   - keyPath2: The key path of the third property to read.
    /// - Returns: A ``Publishers/MapKeyPath3`` that publishes a tuple of the three values.
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}
