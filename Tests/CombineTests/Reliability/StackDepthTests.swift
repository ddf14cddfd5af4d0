// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

/// Stack use under re-entrancy and deep chains.
///
/// Synchronous sources deliver in a loop, so a long stream asked for one value at a time keeps
/// a flat stack. A chain, on the other hand, is as deep as it is long: each stage subscribes
/// to the one before and hands each value to the one after by a call, here as in Apple's
/// Combine. So does a sink that sends into its own subject: the nested value is delivered at
/// once, inside the outer delivery, as Apple's Combine does.
@Suite(
    "Stacks: flat for long streams, bounded for deep chains and re-entrancy",
    .disabled(
        if: runningUnderSanitizer, "stack and memory use are what these measure; the sanitizers multiply both")
)
struct StackDepthTests {
    // Publishers.Sequence over ten million values one at a time: SourceContractTests.

    @Test func recordOfFiveMillionValuesOneAtATimeByReturnedDemand() async {
        await offThePool {
            let subscriber = StackProbeSubscriber(reentrant: false)
            Record<Int, Never>(output: Array(0..<5_000_000), completion: .finished).subscribe(subscriber)
            #expect(subscriber.count == 5_000_000)
            #expect(subscriber.inOrder)
            #expect(subscriber.completions == 1)
            #expect(subscriber.stackSpread < 4_096)
        }
    }

    @Test(arguments: [Subscribers.Demand.max(1), .unlimited])
    func justThroughFlatMapOneAtATime(maxPublishers: Subscribers.Demand) async {
        await offThePool {
            let subscriber = StackProbeSubscriber(reentrant: false)
            (0..<justCount).publisher.flatMap(maxPublishers: maxPublishers) { Just($0) }.subscribe(subscriber)
            #expect(subscriber.count == justCount)
            #expect(subscriber.inOrder)
            #expect(subscriber.completions == 1)
            #expect(subscriber.stackSpread < 4_096)
        }
    }

    @Test(arguments: deepRuns)
    func deepRunFitsItsStack(_ run: DeepRun) async {
        await offThePool {
            let usage = onThread(stackSize: run.stackSize) { run.body(run.depth) }
            #expect(usage.deepest == run.depth)
            #expect(usage.bytesPerLevel < run.maxBytesPerLevel)
        }
    }
}

/// A run whose stack grows with its depth, on a thread given `stackSize` bytes.
struct DeepRun: Sendable, CustomTestStringConvertible {
    let name: String
    let depth: Int
    let stackSize: Int
    let maxBytesPerLevel: Int
    let body: @Sendable (Int) -> StackUsage

    var testDescription: String { "\(name), \(depth) deep on \(stackSize >> 20) MiB" }
}

private let deepRuns: [DeepRun] = [
    // A sink that sends into its own subject: each nested send is delivered at once, inside
    // the outer delivery (subject, conduit, sink, closure, send), as Apple's Combine does, so
    // the stack grows by one delivery per level. Measured in a debug build: about 2 KiB a
    // level, so the default 8 MiB stack holds about 4,000 levels; 100,000 levels need about
    // 200 MiB and run on a thread given 512 MiB.
    DeepRun(
        name: "sink sending into its own subject", depth: 3_000, stackSize: defaultStackSize,
        maxBytesPerLevel: 4_096, body: reentrantSends),
    DeepRun(
        name: "sink sending into its own subject", depth: 100_000, stackSize: 512 << 20,
        maxBytesPerLevel: 4_096, body: reentrantSends),
    // `Just(0).flatMap { Just($0 + 1) }` nested: subscribing runs down the chain (each stage
    // subscribes to the one before) and the value climbs back up inside those calls (each
    // stage subscribes its inner Just and hands the value on), so the stack grows with the
    // chain's length, as with Apple's Combine. Measured in a debug build: about 3.5 KiB a
    // level (some twenty frames: the type-erasing box, FlatMap, its subscription, the inner
    // Just, the delivery). An 8 MiB stack holds about 2,400 levels: 10,000 levels overflow it
    // (34 MiB) and run on a thread given 64 MiB.
    DeepRun(
        name: "nested flatMap", depth: 1_500, stackSize: defaultStackSize, maxBytesPerLevel: 6_144,
        body: nestedFlatMap),
    DeepRun(
        name: "nested flatMap", depth: 10_000, stackSize: 64 << 20, maxBytesPerLevel: 6_144, body: nestedFlatMap),
    // A chain of type-erased `map`s: subscribing runs down the chain, the subscription climbs
    // back up inside those calls, the sink's request runs down again and the value climbs up,
    // all nested, so the stack at the sink holds every stage four times over (as with Apple's
    // Combine). Measured in a debug build: 1,664 bytes a level, so the default 8 MiB stack holds
    // about 5,000 levels; the limit pins it, so a change that grows the frames shows here. In a
    // release build a level took 592 bytes (about 14,000 levels in 8 MiB) until `subscribe(_:)`
    // kept its introspected path out of line (`subscribeObserved`): 464 bytes, about 18,000. 20,000 levels run on a thread given 64 MiB.
    DeepRun(
        name: "erased map chain", depth: 4_000, stackSize: defaultStackSize, maxBytesPerLevel: 2_048,
        body: erasedMapChain),
    DeepRun(
        name: "erased map chain", depth: 20_000, stackSize: 64 << 20, maxBytesPerLevel: 2_048,
        body: erasedMapChain),
]

/// The Just values sent through flatMap, one at a time.
private let justCount = 500_000

/// How deep a run went and the stack it took per level.
struct StackUsage: Sendable {
    let deepest: Int
    let bytesPerLevel: Int
}

/// A sink that, for each value below `depth`, sends the next one into the subject it listens
/// to; returns the depth reached and the stack each nested delivery took.
func reentrantSends(depth: Int) -> StackUsage {
    let subject = PassthroughSubject<Int, Never>()
    var deepest = 0
    var lowest = UInt.max
    let top = stackAddress()
    let cancellable = subject.sink { value in
        deepest = max(deepest, value)
        lowest = min(lowest, stackAddress())
        if value < depth { subject.send(value + 1) }
    }
    subject.send(1)
    withExtendedLifetime(cancellable) {}
    return StackUsage(deepest: deepest, bytesPerLevel: Int(top &- lowest) / depth)
}

/// `Just(0)` through `depth` type-erased `map { $0 + 1 }` stages, into a sink.
func erasedMapChain(depth: Int) -> StackUsage {
    var publisher = Just(0).eraseToAnyPublisher()
    for _ in 0..<depth {
        publisher = publisher.map { $0 + 1 }.eraseToAnyPublisher()
    }
    return sinkAtTheEnd(of: publisher, depth: depth)
}

/// Subscribes a sink to a chain `depth` stages long whose last value is its depth: the depth
/// reached and the stack each stage took, measured where the value arrives.
func sinkAtTheEnd(of publisher: AnyPublisher<Int, Never>, depth: Int) -> StackUsage {
    var deepest = 0
    var lowest = UInt.max
    let top = stackAddress()
    _ = publisher.sink { value in
        deepest = value
        lowest = stackAddress()
    }
    return StackUsage(deepest: deepest, bytesPerLevel: Int(top &- lowest) / depth)
}

/// `Just(0).flatMap { Just($0 + 1) }` nested `depth` times, into a sink.
func nestedFlatMap(depth: Int) -> StackUsage {
    var publisher = Just(0).eraseToAnyPublisher()
    for _ in 0..<depth {
        publisher = publisher.flatMap { Just($0 + 1) }.eraseToAnyPublisher()
    }
    return sinkAtTheEnd(of: publisher, depth: depth)
}
