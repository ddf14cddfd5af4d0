// SPDX-License-Identifier: Apache-2.0
import Combine

/// The team's scenarios document (docs/SCENARIOS.md §7): a subscriber that requests three values
/// on subscription and, by returning `.max(1)` for the third, receives a fourth.
final class ThreeAndOneMoreSubscriber: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    private var received = 0

    func receive(subscription: Subscription) {
        print("  receive(subscription:) -> request(.max(3))")
        subscription.request(.max(3))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        received += 1
        let more: Subscribers.Demand = received == 3 ? .max(1) : .none
        print("  receive(\(input)) -> \(more)")
        return more
    }

    func receive(completion: Subscribers.Completion<Never>) {
        print("  receive(completion: \(completion))")
    }
}

func customSubscriber() {
    let subject = PassthroughSubject<Int, Never>()
    subject.subscribe(ThreeAndOneMoreSubscriber())
    for value in 1...5 {
        print("  send(\(value))")
        subject.send(value)
    }
    subject.send(completion: .finished)
}
