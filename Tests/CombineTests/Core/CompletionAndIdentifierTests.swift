// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

@Suite("Subscribers.Completion round trips")
struct CompletionRoundTripTests {
    typealias Completion = Subscribers.Completion<CoreTestError>

    @Test func equalityComparesTheFailure() {
        #expect(Completion.finished == .finished)
        #expect(Completion.failure(CoreTestError(code: 1)) == .failure(CoreTestError(code: 1)))
        #expect(Completion.failure(CoreTestError(code: 1)) != .failure(CoreTestError(code: 2)))
        #expect(Completion.failure(CoreTestError(code: 1)) != .finished)
    }

    @Test func hashingFollowsEquality() {
        let completions: [Completion] = [
            .finished, .failure(CoreTestError(code: 1)), .failure(CoreTestError(code: 1)),
            .failure(CoreTestError(code: 2)), .finished,
        ]
        #expect(Set(completions).count == 3)
        #expect(
            Completion.failure(CoreTestError(code: 5)).hashValue == Completion.failure(CoreTestError(code: 5)).hashValue
        )
    }

    @Test func codableRoundTripInsideAContainer() throws {
        let completions: [Completion] = [.finished, .failure(CoreTestError(code: 9))]
        let data = try JSONEncoder().encode(completions)
        #expect(try JSONDecoder().decode([Completion].self, from: data) == completions)
        // `.finished` and `.failure` must not decode as each other.
        let finishedData = try JSONEncoder().encode(Completion.finished)
        let failureData = try JSONEncoder().encode(Completion.failure(CoreTestError(code: 9)))
        #expect(finishedData != failureData)
    }
    struct Failure: Error, Codable, Hashable {
        let code: Int
    }

    @Test func equatableHashableCodable() throws {
        let completions: [Subscribers.Completion<Failure>] = [.finished, .failure(Failure(code: 1))]
        #expect(completions[0] != completions[1])
        #expect(Set(completions + completions).count == 2)
        for completion in completions {
            let data = try JSONEncoder().encode(completion)
            #expect(try JSONDecoder().decode(Subscribers.Completion<Failure>.self, from: data) == completion)
        }
    }
}

@Suite("CombineIdentifier identity")
struct CombineIdentifierIdentityTests {
    final class Object {}

    @Test func freshIdentifiersAreUniqueAcrossThreads() async {
        await offThePool {
            let identifiers = LockedValue<[CombineIdentifier]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let made = (0..<1_000).map { _ in CombineIdentifier() }
                identifiers.withLock { $0.append(contentsOf: made) }
            }
            #expect(identifiers.current.count == 8_000)
            #expect(Set(identifiers.current).count == 8_000)
        }
    }

    @Test func objectIdentifierIsStableForTheSameObject() {
        let object = Object()
        let other = Object()
        let first = CombineIdentifier(object)
        #expect(first == CombineIdentifier(object))
        #expect(first.hashValue == CombineIdentifier(object).hashValue)
        #expect(first != CombineIdentifier(other))
        #expect(first != CombineIdentifier())
        withExtendedLifetime((object, other)) {}
    }

    @Test func classSubscribersAndSubscriptionsIdentifyByInstance() {
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        #expect(a.combineIdentifier == CombineIdentifier(a))
        #expect(a.combineIdentifier == a.combineIdentifier)
        #expect(a.combineIdentifier != b.combineIdentifier)
        let probe = ProbePublisher<Int>()
        probe.subscribe(a)
        let subscription = a.subscription
        #expect(subscription != nil)
        if let subscription {
            #expect(subscription.combineIdentifier == CombineIdentifier(subscription as AnyObject))
        }
    }

    @Test func closureAnySubscribersGetDistinctIdentifiers() {
        let first = AnySubscriber<Int, Never>()
        let second = AnySubscriber<Int, Never>()
        #expect(first.combineIdentifier != second.combineIdentifier)
        // A copy of the same erased subscriber is the same subscriber.
        let copy = first
        #expect(copy.combineIdentifier == first.combineIdentifier)
    }

    @Test func freshIdentifiersAreUnique() {
        let identifiers = (0..<1_000).map { _ in CombineIdentifier() }
        #expect(Set(identifiers).count == 1_000)
    }

    @Test func objectIdentifiersFollowIdentity() {
        let a = Object()
        let b = Object()
        #expect(CombineIdentifier(a) == CombineIdentifier(a))
        #expect(CombineIdentifier(a) != CombineIdentifier(b))
        #expect(CombineIdentifier(a).description.hasPrefix("0x"))
    }

    @Test func classesGetADefaultIdentifier() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.combineIdentifier == CombineIdentifier(sink))
    }
}
