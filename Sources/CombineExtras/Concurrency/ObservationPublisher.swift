// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import Observation

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension Observable where Self: AnyObject {
    /// A publisher of a property of this `@Observable` object: the current value at once, then
    /// the value after each change.
    ///
    /// ```
    /// model.count:  0 ---1---2-2---3
    /// publisher:    0 ---1---2-----3   (changes made together arrive as one value)
    /// ```
    ///
    /// Each subscription follows the property with its own `Observations` sequence from the
    /// Observation module (published through `AsyncSequence.publisher`, so demand is honoured: a
    /// value is read only when the subscriber wants one). Changes are coalesced as
    /// `Observations` coalesces them: several changes made in one turn arrive as one value, the
    /// value after them. The object is held weakly: the publisher never keeps it alive, and
    /// publishes nothing more once it is gone.
    ///
    /// The property is read on the actor the publisher is made on (`isolation`, by default
    /// the caller's): made from `@MainActor` code, a main-actor model is read on the main
    /// actor. Values are delivered from the subscription's task; use `receive(on:)` to move
    /// them to the main queue.
    ///
    /// A change made on another thread while the property is being read can be missed:
    /// `Observations` is told of a change before the new value is stored, so its read may still
    /// see the old value, and it is not told again. For an `Equatable` value the publisher
    /// therefore reads the property once more after ``ObservedValues/settlingDelay`` without a
    /// change, and publishes what it reads there if it differs from the last value published:
    /// the last value published is the property's value once the changes stop. A value that is
    /// not `Equatable` cannot be compared, and is not read again.
    ///
    /// ```swift
    /// @Observable final class Counter { var count = 0 }
    ///
    /// let counter = Counter()
    /// let cancellable = counter.observationPublisher(for: \.count)
    ///     .sink { print($0) }
    /// counter.count = 1
    /// // Prints 0, then 1
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property to publish.
    ///   - isolation: The actor the property is read on; the caller's by default.
    /// - Returns: A publisher of the property's value that never fails.
    public func observationPublisher<Value: Sendable>(
        for keyPath: KeyPath<Self, Value>, isolation: isolated (any Actor)? = #isolation
    ) -> Publishers.AsyncSequence<ObservedValues<Value>> {
        let object = WeakObject(self)
        let path = UncheckedSendable(keyPath)
        let read = isolatedLikeItsContext {
            _ = isolation  // captured, so that the closure runs on that actor
            guard let object = object.object else { return Observations<Value, Never>.Iteration.finish }
            return .next(object[keyPath: path.value])
        }
        return ObservedValues(read: read).publisher
    }
}

/// The values of a property of an `@Observable` object, as
/// `observationPublisher(for:isolation:)` publishes them: the current value first, then the
/// value after each change.
///
/// Each iteration follows the property with its own `Observations` sequence, so that iterations
/// never share its record of pending changes. For an `Equatable` value, once
/// ``settlingDelay`` has passed after a value without another change, the iteration reads the
/// property again and returns what it reads if it differs from the value it returned last: a
/// change stored on another thread while `Observations` was reading is not lost.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
public struct ObservedValues<Element: Sendable>: AsyncSequence, Sendable {
    /// Iterating never throws.
    public typealias Failure = Never

    /// How long an iteration waits after a value, without a change, before it reads the property
    /// once more (10 ms).
    public static var settlingDelay: Duration { .milliseconds(10) }

    fileprivate let read: @isolated(any) @Sendable () -> Observations<Element, Never>.Iteration

    fileprivate init(read: @escaping @isolated(any) @Sendable () -> Observations<Element, Never>.Iteration) {
        self.read = read
    }

    /// Starts following the property.
    public func makeAsyncIterator() -> Iterator {
        Iterator(follower: Follower(read: read))
    }

    /// Returns the property's values one by one; `nil` once the object is gone or the task is
    /// cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        /// Iterating never throws.
        public typealias Failure = Never

        private let follower: Follower<Element>

        fileprivate init(follower: Follower<Element>) {
            self.follower = follower
        }

        /// The next value of the property: the current one on the first call, then the value
        /// after the next change.
        public mutating func next() async -> Element? {
            await follower.next()
        }

        /// The next value of the property: the current one on the first call, then the value
        /// after the next change.
        ///
        /// - Parameter actor: The caller's actor (the property is read on the actor the
        ///   sequence was made on, whatever this is).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await follower.next()
        }
    }
}

/// Returns `body` as it is: a closure literal passed here runs on the actor of the context it is
/// written in (the caller's `isolated` parameter, when it captures one), as `Observations`'s own
/// closure does.
private func isolatedLikeItsContext<Result>(
    @_inheritActorContext _ body: @escaping @isolated(any) @Sendable () -> Result
) -> @isolated(any) @Sendable () -> Result {
    body
}

/// One iteration of ``ObservedValues``: a task drives the iteration's `Observations` one value
/// per request, and the caller of `next()` takes that value, or reads the property itself once
/// the settling delay passes first.
private final class Follower<Element: Sendable>: @unchecked Sendable {
    private let read: @isolated(any) @Sendable () -> Observations<Element, Never>.Iteration
    private let exchange = Exchange<Element>()
    private var driver: Task<Void, Never>?
    // The rest is the caller's, whose calls of `next()` never overlap.
    private var last: Element?
    /// A value came from `Observations` and the property has not been read again since.
    private var settlePending = false
    /// The last value returned came from reading the property again: the next value from
    /// `Observations`, if it is the same, reports that same change and is skipped.
    private var settled = false
    private var ended = false

    init(read: @escaping @isolated(any) @Sendable () -> Observations<Element, Never>.Iteration) {
        self.read = read
    }

    deinit {
        driver?.cancel()
        exchange.end()
    }

    func next() async -> Element? {
        if ended { return nil }
        if driver == nil { startDriver() }
        while true {
            let wait = settlePending && last.map(isComparable) == true ? ObservedValues<Element>.settlingDelay : nil
            switch await exchange.nextAnswer(orAfter: wait) {
            case .ended, .answer(nil):
                end()
                return nil
            case .answer(let value?):
                // A value read by `Observations` may itself be stale: read again after it too.
                settlePending = true
                defer { settled = false }
                if settled, let last, isSame(value, last) { continue }
                last = value
                return value
            case .quiet:
                settlePending = false
                guard case .next(let current) = await read(), let last, !isSame(current, last) else { continue }
                self.last = current
                settled = true
                return current
            }
        }
    }

    private func startDriver() {
        let changes = Observations<Element, Never>.untilFinished(read)
        let exchange = self.exchange
        driver = Task {
            var iterator = changes.makeAsyncIterator()
            while await exchange.waitUntilWanted() {
                let value = await iterator.next(isolation: nil)
                exchange.answer(value)
                if value == nil { return }
            }
        }
    }

    private func end() {
        ended = true
        driver?.cancel()
        exchange.end()
    }
}

/// Whether `value` can be compared with another value of its type.
private func isComparable<Value>(_ value: Value) -> Bool {
    value is any Equatable
}

/// Whether two values are equal; `false` for values that are not `Equatable`.
private func isSame<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
    guard let lhs = lhs as? any Equatable else { return false }
    return lhs.isEqual(to: rhs)
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// What the driver task and the caller of `next()` hand each other, under a lock: the request
/// for a value, the value (`nil` when `Observations` ended), and the wake-ups of either side.
private final class Exchange<Element: Sendable>: @unchecked Sendable {
    enum Outcome {
        /// A value from `Observations`, or `nil` once it ended.
        case answer(Element?)
        /// The settling delay passed first.
        case quiet
        /// The caller's task was cancelled, or the iteration was let go.
        case ended
    }

    private let lock = Lock()
    // Guarded by `lock`:
    private var wanted = false
    private var answer: Element??
    private var driverWaiting: UnsafeContinuation<Bool, Never>?
    private var callerWaiting: UnsafeContinuation<Void, Never>?
    private var waitNumber = 0
    private var quietNumber = -1
    private var ended = false

    /// The driver's side: waits until a value is wanted; `false` once the iteration ended.
    func waitUntilWanted() async -> Bool {
        await withUnsafeContinuation { continuation in
            lock.acquire()
            if ended || wanted {
                let go = !ended
                lock.release()
                continuation.resume(returning: go)
            } else {
                driverWaiting = continuation
                lock.release()
            }
        }
    }

    /// The driver's side: hands over a value (`nil`: `Observations` ended).
    func answer(_ value: Element?) {
        lock.acquire()
        wanted = false
        answer = .some(value)
        let caller = callerWaiting
        callerWaiting = nil
        lock.release()
        caller?.resume()
    }

    /// The caller's side: asks the driver for a value if none is on its way, and waits for it,
    /// at most `delay` when one is given.
    func nextAnswer(orAfter delay: Duration?) async -> Outcome {
        lock.acquire()
        waitNumber += 1
        let number = waitNumber
        var driver: UnsafeContinuation<Bool, Never>?
        if answer == nil && !wanted {
            wanted = true
            driver = driverWaiting
            driverWaiting = nil
        }
        lock.release()
        driver?.resume(returning: true)
        let timer = delay.map { delay in
            Task { [self] in
                try? await Task.sleep(for: delay)
                if !Task.isCancelled { passQuiet(number) }
            }
        }
        defer { timer?.cancel() }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                lock.acquire()
                if answer != nil || ended || quietNumber == number {
                    lock.release()
                    continuation.resume()
                } else {
                    callerWaiting = continuation
                    lock.release()
                }
            }
        } onCancel: {
            end()
        }
        return lock.withLock {
            if let value = answer {
                answer = nil
                return .answer(value)
            }
            if ended { return .ended }
            return .quiet
        }
    }

    /// The settling delay of wait `number` passed: wakes the caller if it is still in that wait.
    private func passQuiet(_ number: Int) {
        lock.acquire()
        guard number == waitNumber, answer == nil else {
            lock.release()
            return
        }
        quietNumber = number
        let caller = callerWaiting
        callerWaiting = nil
        lock.release()
        caller?.resume()
    }

    /// Ends the iteration: wakes both sides.
    func end() {
        lock.acquire()
        ended = true
        let driver = driverWaiting
        let caller = callerWaiting
        driverWaiting = nil
        callerWaiting = nil
        lock.release()
        driver?.resume(returning: false)
        caller?.resume()
    }
}

/// The observed object, held weakly by the closure that reads it. The closure reads the
/// property on its actor, as any Combine publisher reads its source from the thread that
/// drives it.
private final class WeakObject<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
