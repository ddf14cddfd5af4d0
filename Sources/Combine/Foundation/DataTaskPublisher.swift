// SPDX-License-Identifier: Apache-2.0
// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Foundation) && !os(WASI)
import CombineSynchronization
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher that wraps a URL session data task for a given URL.
    ///
    /// The publisher publishes data when the task completes, or terminates if the task fails
    /// with an error.
    ///
    /// ```swift
    /// let cancellable = URLSession.shared.dataTaskPublisher(for: URL(string: "https://example.com")!)
    ///     .map(\.data)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.count, "bytes") })
    /// ```
    ///
    /// - Parameter url: The URL for which to create a data task.
    /// - Returns: A publisher that wraps a data task for the URL.
    public func dataTaskPublisher(for url: URL) -> URLSession.DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher that wraps a URL session data task for a given URL request.
    ///
    /// The publisher publishes data when the task completes, or terminates if the task fails
    /// with an error.
    ///
    /// ```swift
    /// var request = URLRequest(url: URL(string: "https://example.com/items")!)
    /// request.setValue("application/json", forHTTPHeaderField: "Accept")
    /// let items = URLSession.shared.dataTaskPublisher(for: request)
    ///     .map(\.data)
    ///     .decode(type: [Item].self, decoder: JSONDecoder())
    /// ```
    ///
    /// - Parameter request: The URL request for which to create a data task.
    /// - Returns: A publisher that wraps a data task for the URL request.
    public func dataTaskPublisher(for request: URLRequest) -> URLSession.DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that delivers the results of performing URL session data tasks.
    ///
    /// Each subscription performs its own data task. Nothing is requested from the network
    /// until the subscriber asks for a value: the task is created and resumed on the first
    /// demand. When the task completes, the subscriber receives one value — the body and the
    /// response — and then `.finished`, or a failure if the task failed. An HTTP error status
    /// (404, 500, …) is not a failure: it arrives as a value whose response is an
    /// `HTTPURLResponse` with that status code. Cancelling the subscription cancels the task.
    ///
    /// ```swift
    /// session.dataTaskPublisher(for: url)      // --(data, response)|
    ///     .tryMap { output in
    ///         guard (output.response as? HTTPURLResponse)?.statusCode == 200 else {
    ///             throw URLError(.badServerResponse)
    ///         }
    ///         return output.data
    ///     }
    /// ```
    ///
    /// The value and the completion arrive on the session's delegate queue.
    public struct DataTaskPublisher: Combine.Publisher {
        /// The kind of values published by this publisher: the body and the response.
        public typealias Output = (data: Data, response: URLResponse)

        /// The error a failed data task reports.
        public typealias Failure = URLError

        /// The URL request performed by the data task associated with this publisher.
        public let request: URLRequest

        /// The URL session that performs the data task associated with this publisher.
        public let session: URLSession

        /// Creates a data task publisher from the provided URL request and URL session.
        ///
        /// ```swift
        /// let publisher = URLSession.DataTaskPublisher(request: URLRequest(url: url), session: .shared)
        /// ```
        ///
        /// - Parameters:
        ///   - request: The URL request from which to create a URL session data task.
        ///   - session: The URL session to create the data task.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Hands `subscriber` a subscription that performs the request once it asks for a value.
        ///
        /// - Parameter subscriber: The subscriber that receives the response, or the error.
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == (data: Data, response: URLResponse), S.Failure == URLError {
            subscriber.receive(subscription: DataTaskSubscription(downstream: subscriber, publisher: self))
        }
    }
}

/// What a data task's completion handler reports to: the subscription, seen without its
/// subscriber's type (the handler is `@Sendable`; the subscriber's type need not be).
private protocol DataTaskResultReceiver: AnyObject, Sendable {
    func complete(data: Data?, response: URLResponse?, error: (any Error)?)
}

/// The subscription of a data task publisher: it starts the data task on the first demand and
/// delivers its result once. As Apple's, a later request resumes the task again (a no-op for
/// a running task), and the mirror shows the task, the subscriber, the publisher and the
/// demand.
///
/// `@unchecked Sendable`: its state is read and written only under `lock`; the task is
/// created, resumed and cancelled, and the subscriber called, after releasing it.
private final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskResultReceiver,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == (data: Data, response: URLResponse), Downstream.Failure == URLError {
    private enum Phase {
        /// No demand yet.
        case waiting
        /// The first demand arrived; the task is being created.
        case starting
        case running(URLSessionDataTask)
        /// Completed or cancelled.
        case over
    }

    private let lock = Lock()
    private var downstream: Downstream?
    /// The publisher, until the end.
    private var parent: URLSession.DataTaskPublisher?
    private var phase = Phase.waiting
    private var demand = Subscribers.Demand.none
    /// The task `cancel()` cancelled, until the task's completion handler has settled it.
    private var cancelled: Cancelled?

    init(downstream: Downstream, publisher: URLSession.DataTaskPublisher) {
        self.downstream = downstream
        parent = publisher
    }

    var description: String { "DataTaskPublisher" }
    var playgroundDescription: Any { description }

    var customMirror: Mirror {
        let (task, downstream, parent, demand):
            (URLSessionDataTask?, Downstream?, URLSession.DataTaskPublisher?, Subscribers.Demand) =
                lock.withLock {
                    let task: URLSessionDataTask? = if case .running(let task) = phase { task } else { nil }
                    return (task, self.downstream, self.parent, self.demand)
                }
        let children: [Mirror.Child] = [
            ("task", task as Any), ("downstream", downstream as Any), ("parent", parent as Any), ("demand", demand),
        ]
        return Mirror(self, children: children)
    }

    func request(_ demand: Subscribers.Demand) {
        apiPrecondition(demand != .none, "API Violation: demand must not be zero")
        var running: URLSessionDataTask?
        let publisher: URLSession.DataTaskPublisher? = lock.withLock {
            guard downstream != nil else { return nil }
            self.demand += demand
            switch phase {
            case .waiting:
                phase = .starting
                return parent
            case .running(let task):
                running = task
                return nil
            case .starting, .over:
                return nil
            }
        }
        if let running {
            // As Apple's, a request resumes the task, which matters only for a task suspended
            // meanwhile (through the mirror's `task`): resuming one that runs does nothing there.
            // Here it is not harmless: Foundation on Linux, resuming a task that has just
            // finished loading but whose state still reads `.running`, can trap ("a task that
            // is not in the registry"), which a second request racing the response reached.
            if running.state == .suspended { running.resume() }
            return
        }
        guard let publisher else { return }
        let receiver: any DataTaskResultReceiver = self
        let task = publisher.session.dataTask(with: publisher.request) { data, response, error in
            receiver.complete(data: data, response: response, error: error)
        }
        let started: Bool = lock.withLock {
            guard case .starting = phase else { return false }
            phase = .running(task)
            return true
        }
        if started { task.resume() } else { task.cancel() }
    }

    func cancel() {
        lock.acquire()
        let phase = self.phase
        self.phase = .over
        let downstream = self.downstream.take()
        let parent = self.parent.take()
        var cancelled: Cancelled?
        if case .running(let task) = phase {
            cancelled = Cancelled(task: task)
            self.cancelled = cancelled
        }
        lock.release()
        if let cancelled {
            cancelled.task.cancel()
            cancelled.returned.signal()
        }
        _ = (downstream, parent)  // released here, outside the lock
    }

    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        var task: URLSessionDataTask?  // released after the lock
        var parent: URLSession.DataTaskPublisher?
        var cancelled: Cancelled?
        let downstream: Downstream? = lock.withLock {
            guard case .running(let running) = phase else {
                cancelled = self.cancelled.take()
                return nil
            }
            task = running
            phase = .over
            parent = self.parent.take()
            if demand != .unlimited { demand -= 1 }
            return self.downstream.take()
        }
        _ = (task, parent)
        cancelled?.settle()
        guard let downstream else { return }
        if let response, error == nil {
            _ = downstream.receive((data ?? Data(), response))
            downstream.receive(completion: .finished)
        } else {
            downstream.receive(completion: .failure(URLError(reporting: error)))
        }
    }
}

/// A task the subscription cancelled, and the cancel's progress.
///
/// Where Foundation's networking is FoundationNetworking (Linux), it traps ("a task that in not in the registry") when a task's
/// cancel reports itself after the task has finished and left its session. A task's `cancel()`
/// hands that report to the task's work queue, at once or, while the session is still reading
/// its URL cache for the task, once the cache has answered; a finished task leaves the session
/// as soon as its completion handler returns. So a cancel landing just after the task starts
/// can have its report queued after a response that arrived meanwhile (from the network or the
/// cache). The completion handler of a task the subscription cancelled therefore settles the
/// cancel before returning: it waits for the subscription's call to the task's `cancel()` to
/// return, then for the report, which sets the task's `error` on the work queue. Calling the
/// task's `cancel()` again does nothing to a task that is already cancelling, but returns only
/// once the work queue has run what was queued before it, so each look at `error` follows it.
private struct Cancelled: Sendable {
    let task: URLSessionDataTask
    /// Signalled when the subscription's call to the task's `cancel()` has returned.
    let returned = DispatchSemaphore(value: 0)

    /// Returns once the cancel's report has run, or after half a second without it (a bound
    /// that only a stalled machine reaches: the report is queued by a thread that is already
    /// running). Called on the session's delegate queue, from the task's completion handler;
    /// nothing on the work queue waits for that queue.
    func settle() {
        returned.wait()
        #if canImport(FoundationNetworking)
        let deadline = DispatchTime.now() + .milliseconds(500)
        while true {
            task.cancel()
            if task.error != nil || DispatchTime.now() >= deadline { return }
            Thread.sleep(forTimeInterval: 0.000_2)
        }
        #endif
    }
}

extension URLError {
    /// The `URLError` a data task's error stands for: the error itself, or one with the same
    /// code when it is an `NSError` in the URL error domain (as FoundationNetworking reports
    /// them), `.unknown` otherwise.
    fileprivate init(reporting error: (any Error)?) {
        if let error = error as? URLError {
            self = error
        } else if let error = error as NSError?, error.domain == NSURLErrorDomain {
            self.init(URLError.Code(rawValue: error.code) ?? .unknown, userInfo: error.userInfo)
        } else {
            self.init(.unknown)
        }
    }
}
#endif
