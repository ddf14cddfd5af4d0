// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import TestSupport
import Testing

/// A subscription that lets a test call the subscriber out of order: it records requests and
/// cancels, and delivers nothing by itself.
private final class InertSubscription: Subscription {
    var requests: [Subscribers.Demand] = []
    var cancels = 0
    func request(_ demand: Subscribers.Demand) { requests.append(demand) }
    func cancel() { cancels += 1 }
}

@Suite("TestSubscriber: records what it receives and every rule broken")
struct TestSubscriberTests {
    @Test("records events in order, asks for its initial demand and adds what onValue returns")
    func recordsAndAccountsDemand() {
        let subscription = InertSubscription()
        let subscriber = TestSubscriber<Int, CoreTestError>(
            initialDemand: .max(2), onValue: { $0 == 1 ? .max(3) : .none })
        subscriber.receive(subscription: subscription)
        #expect(subscription.requests == [.max(2)])
        #expect(subscriber.outstandingDemand == .max(2))
        #expect(subscriber.receive(1) == .max(3))
        #expect(subscriber.outstandingDemand == .max(4))
        #expect(subscriber.receive(2) == .none)
        subscriber.receive(completion: .failure(CoreTestError(code: 7)))
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(CoreTestError(code: 7)))])
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .failure(CoreTestError(code: 7)))
        #expect(subscriber.subscriptionCount == 1)
        #expect(subscriber.violations.isEmpty)
    }

    @Test("no initial demand asks for nothing; request and cancel go to the subscription")
    func requestAndCancelGoUpstream() {
        let subscription = InertSubscription()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subscriber.receive(subscription: subscription)
        #expect(subscription.requests.isEmpty)
        subscriber.request(.max(5))
        subscriber.cancel()
        #expect(subscription.requests == [.max(5)])
        #expect(subscription.cancels == 1)
        #expect(subscriber.outstandingDemand == .max(5))
    }

    @Test(
        "names each broken rule: value beyond demand, before the subscription, after the completion, a second completion and subscription"
    )
    func reportsViolations() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        _ = subscriber.receive(0)
        subscriber.receive(subscription: InertSubscription())
        _ = subscriber.receive(1)
        subscriber.receive(completion: .finished)
        _ = subscriber.receive(2)
        subscriber.receive(completion: .finished)
        subscriber.receive(subscription: InertSubscription())
        #expect(
            subscriber.violations == [
                "received a value before the subscription", "received a value beyond the demand",
                "received a value beyond the demand", "received a value after the completion",
                "received a value beyond the demand", "received a second completion",
                "received a second subscription", "received a subscription after the completion",
            ])
    }

    @Test("calls overlapping from two threads are a violation; a nested call on one thread is not")
    func overlappingCalls() async {
        await offThePool {
            let inner = TestSubscriber<Int, Never>()
            inner.receive(subscription: InertSubscription())
            let outer = TestSubscriber<Int, Never>(onValue: { value in
                // A call nested inside another, on the same thread.
                _ = inner.receive(value)
                return .none
            })
            outer.receive(subscription: InertSubscription())
            _ = outer.receive(1)
            #expect(outer.violations.isEmpty)

            let overlapped = TestSubscriber<Int, Never>(onValue: { _ in
                // Hold the call while another thread calls in.
                Thread.sleep(forTimeInterval: 0.05)
                return .none
            })
            overlapped.receive(subscription: InertSubscription())
            runOverlapping(threads: 2) { index in _ = overlapped.receive(index) }
            #expect(overlapped.violations.contains("receive(_:) overlapped a call on another thread"))
        }
    }
}

@Suite("TestPublisher: sends what the test says, records requests and cancels")
struct TestPublisherTests {
    @Test("sends to every subscriber whatever its demand, completes and detaches them")
    func sendsAndCompletes() {
        let publisher = TestPublisher<Int, CoreTestError>()
        let first = TestSubscriber<Int, CoreTestError>(initialDemand: .max(1))
        let second = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(publisher.subscriptionCount == 2)
        #expect(publisher.requests == [.max(1)])
        #expect(publisher.totalDemand == .max(1))
        publisher.send(1)
        #expect(first.values == [1])
        #expect(second.values == [1])
        #expect(
            second.violations == ["received a value beyond the demand"],
            "the publisher ignores demand, the subscriber notices")
        publisher.send(completion: .failure(CoreTestError(code: 2)))
        #expect(!publisher.hasSubscriber)
        publisher.send(3)
        #expect(first.values == [1], "a completed subscriber is detached")
        #expect(first.completion == .failure(CoreTestError(code: 2)))
    }

    @Test("a cancel is counted and detaches that subscriber only; send returns the last subscriber's answer")
    func cancelDetaches() {
        let publisher = TestPublisher<Int, Never>()
        let kept = TestSubscriber<Int, Never>(onValue: { _ in .max(2) })
        let cancelled = TestSubscriber<Int, Never>()
        publisher.subscribe(cancelled)
        publisher.subscribe(kept)
        cancelled.cancel()
        #expect(publisher.cancelCount == 1)
        #expect(publisher.hasSubscriber)
        #expect(publisher.send(5) == .max(2))
        #expect(cancelled.values.isEmpty)
        #expect(kept.values == [5])
    }
}
