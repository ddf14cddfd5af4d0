import Combine
import CombineSynchronization

/// Delivers values and one completion to a single subscriber in the order they were handed
/// in, never beyond the demand the subscriber asked for, one call at a time.
///
/// Values handed in without demand wait in a queue; the completion waits behind the queued
/// values (a failure too: nothing handed in before it is lost). Any thread may hand in events
/// or add demand: whichever thread finds nobody delivering becomes the deliverer and loops
/// until the queue is empty or the demand used up; a thread that finds a delivery under way
/// (another thread, or a re-entrant call from inside the subscriber) leaves its event queued
/// for the deliverer. No lock is held while the subscriber is called. After the completion
/// is delivered, or after ``cancel()``, the subscriber and the queue are released and further
/// events are ignored.
///
/// The methods that deliver return the demand the subscriber added by returning it from
/// `receive(_:)` during that call, for operators that pass demand on to an upstream.
final class BufferedDelivery<Downstream: Subscriber>: @unchecked Sendable {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    /// `nil` once the completion has been delivered or the delivery cancelled.
    private var downstream: Downstream?
    private var queue = ValueQueue<Input>()
    private var completion: Subscribers.Completion<Failure>?
    private var demand = Subscribers.Demand.none
    private var delivering = false

    init(_ downstream: Downstream) {
        self.downstream = downstream
    }

    /// Whether events are still accepted: no completion handed in, not cancelled.
    var isOpen: Bool {
        lock.withLock { downstream != nil && completion == nil }
    }

    /// Queues `value` behind the events already queued, without delivering it.
    /// - Returns: Whether it was accepted (not after a completion or a cancel).
    @discardableResult
    func enqueue(_ value: Input) -> Bool {
        lock.withLock {
            guard downstream != nil, completion == nil else { return false }
            queue.append(value)
            return true
        }
    }

    /// Queues the completion behind the values already queued, without delivering it.
    /// - Returns: Whether it was accepted (not after another completion or a cancel).
    @discardableResult
    func enqueue(completion: Subscribers.Completion<Failure>) -> Bool {
        lock.withLock {
            guard downstream != nil, self.completion == nil else { return false }
            self.completion = completion
            return true
        }
    }

    /// Queues `value` and delivers what the demand allows.
    @discardableResult
    func send(_ value: Input) -> Subscribers.Demand {
        guard enqueue(value) else { return .none }
        return drain()
    }

    /// Queues the completion and delivers what the demand allows.
    @discardableResult
    func send(completion: Subscribers.Completion<Failure>) -> Subscribers.Demand {
        guard enqueue(completion: completion) else { return .none }
        return drain()
    }

    /// Adds to the subscriber's demand and delivers what it allows.
    @discardableResult
    func request(_ additional: Subscribers.Demand) -> Subscribers.Demand {
        let open: Bool = lock.withLock {
            guard downstream != nil else { return false }
            demand += additional
            return true
        }
        return open ? drain() : .none
    }

    /// Releases the subscriber and drops the queued events; nothing is delivered afterwards.
    /// - Returns: Whether this call ended the delivery (it was neither completed nor cancelled).
    @discardableResult
    func cancel() -> Bool {
        let released: (Downstream?, [Input]) = lock.withLock {
            defer {
                downstream = nil
                completion = nil
            }
            return (downstream, queue.removeAll())
        }
        // The subscriber and the values are released here, outside the lock.
        return released.0 != nil
    }

    /// Delivers queued events while the demand allows, unless another call is delivering.
    @discardableResult
    func drain() -> Subscribers.Demand {
        let becameDeliverer: Bool = lock.withLock {
            guard !delivering, downstream != nil else { return false }
            delivering = true
            return true
        }
        guard becameDeliverer else { return .none }
        var added = Subscribers.Demand.none
        while true {
            switch nextStep() {
            case .value(let downstream, let value):
                let more = downstream.receive(value)
                guard more > 0 else { continue }
                added += more
                lock.withLock { if self.downstream != nil { demand += more } }
            case .completion(let downstream, let completion):
                downstream.receive(completion: completion)
                return added
            case .idle:
                return added
            }
        }
    }

    private enum Step {
        case value(Downstream, Input)
        case completion(Downstream, Subscribers.Completion<Failure>)
        case idle
    }

    /// Takes the next deliverable event, or gives up the deliverer's role when there is none.
    private func nextStep() -> Step {
        lock.withLock {
            if let downstream {
                if demand > 0, let value = queue.popFirst() {
                    demand -= 1
                    return .value(downstream, value)
                }
                if queue.isEmpty, let completion {
                    self.downstream = nil
                    self.completion = nil
                    delivering = false
                    return .completion(downstream, completion)
                }
            }
            delivering = false
            return .idle
        }
    }
}
