// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Synchronization
import Testing

/// `NotificationCenter.Publisher` on a private center per test: values, the object filter,
/// demand (a post that finds no demand is lost), the observer's lifetime, posts from many
/// threads, and release.
@Suite("NotificationCenter.Publisher")
struct NotificationCenterPublisherTests {
    private let saved = Notification.Name("NotificationCenterPublisherTests.saved")
    private let deleted = Notification.Name("NotificationCenterPublisherTests.deleted")

    private func post(
        _ number: Int, _ name: Notification.Name, on center: NotificationCenter, from object: AnyObject? = nil
    ) {
        center.post(name: name, object: object, userInfo: ["number": number])
    }

    private func numbers(_ subscriber: TestSubscriber<Notification, Never>) -> [Int] {
        subscriber.values.compactMap { $0.userInfo?["number"] as? Int }
    }

    // MARK: Values

    @Test func deliversEachNotificationOfItsNameWithoutCompleting() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>()
        center.publisher(for: saved).subscribe(subscriber)
        post(1, saved, on: center)
        post(2, deleted, on: center)
        post(3, saved, on: center)
        #expect(numbers(subscriber) == [1, 3])
        #expect(subscriber.values.allSatisfy { $0.name == saved })
        #expect(subscriber.completion == nil)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func anObjectFiltersBySenderAndNilTakesEverySender() {
        let center = NotificationCenter()
        let draft = NSObject()
        let final = NSObject()
        let fromDraft = TestSubscriber<Notification, Never>()
        let fromAnyone = TestSubscriber<Notification, Never>()
        center.publisher(for: saved, object: draft).subscribe(fromDraft)
        NotificationCenter.Publisher(center: center, name: saved).subscribe(fromAnyone)
        post(1, saved, on: center, from: draft)
        post(2, saved, on: center, from: final)
        post(3, saved, on: center)
        #expect(numbers(fromDraft) == [1])
        #expect(fromDraft.values.allSatisfy { ($0.object as AnyObject?) === draft })
        #expect(numbers(fromAnyone) == [1, 2, 3])
    }

    @Test func thePublisherKeepsWhatItWasMadeWithAndComparesCenterAndObjectByIdentity() {
        let center = NotificationCenter()
        let sender = NSObject()
        let publisher = center.publisher(for: saved, object: sender)
        #expect(publisher.center === center)
        #expect(publisher.name == saved)
        #expect(publisher.object === sender)
        #expect(publisher == NotificationCenter.Publisher(center: center, name: saved, object: sender))
        #expect(publisher != center.publisher(for: saved, object: NSObject()))
        #expect(publisher != center.publisher(for: deleted, object: sender))
        #expect(publisher != NotificationCenter().publisher(for: saved, object: sender))
        #expect(center.publisher(for: saved) == center.publisher(for: saved, object: nil))
    }

    // MARK: Demand

    @Test func aNotificationPostedWithoutDemandIsDropped() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .none)
        center.publisher(for: saved).subscribe(subscriber)
        post(1, saved, on: center)
        subscriber.request(.max(1))
        post(2, saved, on: center)
        post(3, saved, on: center)
        subscriber.request(.max(2))
        post(4, saved, on: center)
        #expect(numbers(subscriber) == [2, 4])
        #expect(subscriber.outstandingDemand == .max(1))
        #expect(subscriber.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
        center.publisher(for: saved).subscribe(subscriber)
        for number in 1...3 { post(number, saved, on: center) }
        #expect(numbers(subscriber) == [1, 2, 3])
        #expect(subscriber.violations.isEmpty)
    }

    /// Apple's notification subscription adds a zero demand without complaint.
    @Test func requestingNoneIsIgnored() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .none)
        center.publisher(for: saved).subscribe(subscriber)
        subscriber.subscription?.request(.none)
        post(1, saved, on: center)
        #expect(subscriber.values.isEmpty)
    }

    // MARK: The observer

    @Test func postsAfterCancelDeliverNothing() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>()
        center.publisher(for: saved).subscribe(subscriber)
        post(1, saved, on: center)
        subscriber.cancel()
        post(2, saved, on: center)
        subscriber.cancel()
        post(3, saved, on: center)
        #expect(numbers(subscriber) == [1])
        #expect(subscriber.completion == nil)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancellingFromInsideReceiveStopsDelivery() {
        let center = NotificationCenter()
        let held = LockedValue<Subscription?>(nil)
        let subscriber = TestSubscriber<Notification, Never>(
            onSubscription: { subscription in held.withLock { $0 = subscription } },
            onValue: { _ in
                held.current?.cancel()
                return .max(1)
            })
        center.publisher(for: saved).subscribe(subscriber)
        post(1, saved, on: center)
        post(2, saved, on: center)
        #expect(numbers(subscriber) == [1])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func eachSubscriptionHasItsOwnObserverAndDemand() {
        let center = NotificationCenter()
        let publisher = center.publisher(for: saved)
        let eager = TestSubscriber<Notification, Never>()
        let sparing = TestSubscriber<Notification, Never>(initialDemand: .max(1))
        publisher.subscribe(eager)
        publisher.subscribe(sparing)
        for number in 1...3 { post(number, saved, on: center) }
        #expect(numbers(eager) == [1, 2, 3])
        #expect(numbers(sparing) == [1])
    }

    // MARK: Threads

    @Test func postsFromManyThreadsReachTheSubscriberOneAtATime() async {
        await offThePool {
            let center = NotificationCenter()
            let subscriber = TestSubscriber<Notification, Never>()
            center.publisher(for: saved).subscribe(subscriber)
            let threads = 8
            let postsPerThread = 500
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in 0..<postsPerThread {
                    center.post(name: saved, object: nil, userInfo: ["number": thread * postsPerThread + index])
                }
            }
            let received = numbers(subscriber)
            #expect(received.count == threads * postsPerThread)
            #expect(Set(received).count == threads * postsPerThread)
            for thread in 0..<threads {
                let own = received.filter { $0 / postsPerThread == thread }
                #expect(own == Array(thread * postsPerThread..<(thread + 1) * postsPerThread))
            }
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func boundedDemandHoldsAgainstPostsFromManyThreads() async {
        await offThePool {
            let center = NotificationCenter()
            let subscriber = TestSubscriber<Notification, Never>(initialDemand: .max(100))
            center.publisher(for: saved).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for index in 0..<200 {
                    center.post(name: saved, object: nil, userInfo: ["number": thread * 200 + index])
                }
            }
            #expect(subscriber.values.count == 100)
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func cancellingWhileOtherThreadsPostEndsDelivery() async {
        await offThePool {
            let center = NotificationCenter()
            let subscriber = TestSubscriber<Notification, Never>()
            center.publisher(for: saved).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<300 {
                    if thread == 0 && index == 150 { subscriber.cancel() }
                    center.post(name: saved, object: nil, userInfo: ["number": index])
                }
            }
            let countAfterCancel = subscriber.values.count
            post(0, saved, on: center)
            #expect(subscriber.values.count == countAfterCancel)
            #expect(subscriber.violations.isEmpty)
        }
    }

    /// Four threads post without pause while a fifth subscribes and cancels, again and
    /// again: each subscription starts while notifications are being posted, and ends while
    /// they still are. No call overlaps another, and nothing posted after `cancel()` returned
    /// arrives. Each post carries a stamp taken just before it; the stamp counter's value when
    /// the cancel returned is the cut. A post stamped below the cut began before the cancel
    /// returned, and the one value a posting thread was already handing over when the cancel
    /// came may land just after it (a cancel from another thread does not wait for a call under
    /// way, here as in Apple's Combine): at most one such value per subscription.
    @Test func subscribingAndCancellingWhileOtherThreadsPost() async {
        await offThePool {
            let center = NotificationCenter()
            let cycles = runningUnderSanitizer ? 100 : 1_000
            let posting = Atomic<Bool>(true)
            let stamps = Atomic<Int>(0)
            let subscribers = LockedValue<[(TestSubscriber<Notification, Never>, count: Int, cut: Int)]>([])
            runOverlapping(threads: 5) { thread in
                guard thread == 0 else {
                    while posting.load(ordering: .relaxed) {
                        let stamp = stamps.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue
                        center.post(name: saved, object: nil, userInfo: ["number": stamp])
                    }
                    return
                }
                for cycle in 0..<cycles {
                    let subscriber = TestSubscriber<Notification, Never>(
                        initialDemand: cycle % 2 == 0 ? .unlimited : .max(3))
                    center.publisher(for: saved).subscribe(subscriber)
                    subscriber.cancel()
                    let cut = stamps.load(ordering: .sequentiallyConsistent)
                    subscribers.withLock { $0.append((subscriber, subscriber.values.count, cut)) }
                }
                posting.store(false, ordering: .relaxed)
            }
            var late = 0
            for (subscriber, countAtCancel, cut) in subscribers.withLock({ $0 }) {
                let received = numbers(subscriber)
                #expect(received.allSatisfy { $0 < cut }, "a notification posted after the cancel returned arrived")
                #expect(received.count <= countAtCancel + 1)
                #expect(subscriber.violations.isEmpty)
                if received.count > countAtCancel { late += 1 }
            }
            // How often a value under way landed after the cancel: printed, not asserted (timing).
            print(
                "subscribingAndCancellingWhileOtherThreadsPost: \(late) of \(cycles) subscriptions",
                "got a value after cancel() returned")
        }
    }

    // MARK: Release

    @Test func cancellingReleasesTheSubscriber() {
        let center = NotificationCenter()
        weak var weakSubscriber: TestSubscriber<Notification, Never>?
        let subscription: Subscription? = {
            let subscriber = TestSubscriber<Notification, Never>()
            weakSubscriber = subscriber
            center.publisher(for: saved).subscribe(subscriber)
            post(1, saved, on: center)
            return subscriber.subscription
        }()
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
    }

    @Test func droppingTheSinkCancellableReleasesEverything() {
        let center = NotificationCenter()
        weak var weakToken: LifetimeToken?
        do {
            let token = LifetimeToken()
            weakToken = token
            let cancellable = center.publisher(for: saved).sink { _ in _ = token }
            post(1, saved, on: center)
            _ = cancellable
        }
        #expect(weakToken == nil)
    }
}
