// SPDX-License-Identifier: Apache-2.0
import Combine
import Dispatch
import Foundation

/// The team's scenarios document (docs/SCENARIOS.md §7): a display-link-like timer brought into
/// Combine with a custom publisher and subscription. The timer starts on the first request
/// and stops on cancel.
enum DisplayLink {
    struct Frame {
        let timestamp: Double
        let index: Int
    }

    struct Publisher: Combine.Publisher {
        typealias Output = Frame
        typealias Failure = Never

        let framesPerSecond: Int

        func receive<S: Subscriber>(subscriber: S) where S.Input == Frame, S.Failure == Never {
            subscriber.receive(subscription: Subscription(subscriber: subscriber, framesPerSecond: framesPerSecond))
        }
    }

    final class Subscription<S: Subscriber>: Combine.Subscription, @unchecked Sendable
    where S.Input == Frame, S.Failure == Never {
        let combineIdentifier = CombineIdentifier()
        private let lock = NSLock()
        private var subscriber: S?
        private var demand = Subscribers.Demand.none
        private var timer: DispatchSourceTimer?
        private var frames = 0
        private let framesPerSecond: Int
        private let queue = DispatchQueue(label: "display-link")

        init(subscriber: S, framesPerSecond: Int) {
            self.subscriber = subscriber
            self.framesPerSecond = framesPerSecond
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            self.demand += demand
            let start = timer == nil && subscriber != nil
            if start {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now(), repeating: 1.0 / Double(framesPerSecond))
                timer.setEventHandler { [weak self] in self?.tick() }
                self.timer = timer
            }
            let timer = self.timer
            lock.unlock()
            if start {
                print("  subscription: first request (\(demand)) starts the timer")
                timer?.resume()
            }
        }

        private func tick() {
            lock.lock()
            guard let subscriber, demand > 0 else {
                lock.unlock()
                return
            }
            demand -= 1
            frames += 1
            let frame = Frame(timestamp: Date().timeIntervalSince1970, index: frames)
            lock.unlock()
            let more = subscriber.receive(frame)
            lock.lock()
            demand += more
            lock.unlock()
        }

        func cancel() {
            lock.lock()
            let timer = self.timer
            self.timer = nil
            subscriber = nil
            lock.unlock()
            if timer != nil { print("  subscription: cancel stops the timer") }
            timer?.cancel()
        }
    }
}

func customPublisher() {
    let done = DispatchSemaphore(value: 0)
    var first: Double?
    var cancellable: AnyCancellable? = DisplayLink.Publisher(framesPerSecond: 60)
        .sink { frame in
            // The frame's timestamp, in milliseconds after the first frame's (60 per second:
            // about 17 ms apart).
            let start = first ?? frame.timestamp
            first = start
            let after = String(format: "%.0f", (frame.timestamp - start) * 1_000)
            print("  frame \(frame.index), timestamp +\(after) ms after frame 1")
            if frame.index == 5 { done.signal() }
        }
    withExtendedLifetime(cancellable) {}
    done.wait()
    print("  releasing the AnyCancellable")
    cancellable = nil
}
