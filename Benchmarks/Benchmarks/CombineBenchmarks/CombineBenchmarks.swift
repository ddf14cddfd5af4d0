// SPDX-License-Identifier: Apache-2.0
import Baseline
import Benchmark
import OpenCombineScenarios
import OursScenarios

/// One scenario: the same work done by this library, OpenCombine and a hand-written loop.
/// `operations` is how many values (or operations) one iteration performs: `run.sh`
/// divides by it to report time and mallocs per value.
struct Scenario: Sendable {
    let name: String
    let operations: Int
    let ours: @Sendable (Int) -> Int
    let openCombine: (@Sendable (Int) -> Int)?
    let baseline: @Sendable (Int) -> Int
}

/// Contended sends (issue 16): `threads` threads, started from one barrier so that they really
/// overlap, send into one subject with `sinks` sinks.
func contendedSubjectScenario(threads: Int, sinks: Int, operations: Int) -> Scenario {
    Scenario(
        name: "contended: \(threads) threads -> subject -> \(sinks) sink\(sinks == 1 ? "" : "s (per send)")",
        operations: operations,
        ours: { OursScenarios.Scenarios.contendedSubject($0, threads: threads, sinks: sinks) },
        openCombine: { OpenCombineScenarios.Scenarios.contendedSubject($0, threads: threads, sinks: sinks) },
        baseline: { Baseline.contended($0, threads: threads, sinks: sinks) })
}

let contendedSubjectScenarios = [(2, 1, 400_000), (4, 1, 400_000), (2, 10, 100_000), (4, 10, 100_000)].map {
    contendedSubjectScenario(threads: $0.0, sinks: $0.1, operations: $0.2)
}

/// Every scenario (the table is sorted by name, so the order here does not matter).
let scenarios: [Scenario] = listedScenarios + contendedSubjectScenarios

let listedScenarios: [Scenario] =
    [
        Scenario(
            name: "sequence.map.filter.sink", operations: 1_000_000,
            ours: OursScenarios.Scenarios.sequenceMapFilterSink,
            openCombine: OpenCombineScenarios.Scenarios.sequenceMapFilterSink, baseline: Baseline.sequenceMapFilterSink),
        Scenario(
            name: "subject send -> 1 sink", operations: 1_000_000, ours: OursScenarios.Scenarios.subjectToOneSink,
            openCombine: OpenCombineScenarios.Scenarios.subjectToOneSink, baseline: Baseline.subjectToOneSink),
        // The same sends with a CombineTrace recording (one value event each): the tracer's cost
        // per event is the difference from the row above. OpenCombine has no tracer.
        Scenario(
            name: "subject send -> 1 sink, CombineTrace on", operations: 1_000_000,
            ours: OursScenarios.Scenarios.tracedSubjectToOneSink, openCombine: nil,
            baseline: Baseline.subjectToOneSink),
        // The tracer and the logger beside the untraced rows they add to (OpenCombine has neither).
        Scenario(
            name: "subject.map.sink", operations: 1_000_000, ours: OursScenarios.Scenarios.subjectMapSink,
            openCombine: nil, baseline: Baseline.subjectToOneSink),
        Scenario(
            name: "subject.map.sink, subscribed under a trace, sent after stop()", operations: 1_000_000,
            ours: OursScenarios.Scenarios.subjectMapSinkAfterTrace, openCombine: nil,
            baseline: Baseline.subjectToOneSink),
        Scenario(
            name: "4 threads -> 4 subject.map.sink pipelines (per value)", operations: 400_000,
            ours: { OursScenarios.Scenarios.fourPipelines($0, traced: false) }, openCombine: nil,
            baseline: Baseline.subjectToOneSink),
        Scenario(
            name: "4 threads -> 4 subject.map.sink pipelines, CombineTrace on (per value)", operations: 400_000,
            ours: { OursScenarios.Scenarios.fourPipelines($0, traced: true) }, openCombine: nil,
            baseline: Baseline.subjectToOneSink),
        Scenario(
            name: "subject send -> 1 sink, log(level: .debug) filtered out by .info", operations: 1_000_000,
            ours: OursScenarios.Scenarios.filteredLogSubjectToOneSink, openCombine: nil,
            baseline: Baseline.subjectToOneSink),
        Scenario(
            name: "subject.map.filter.sink", operations: 1_000_000,
            ours: OursScenarios.Scenarios.subjectMapFilterSink,
            openCombine: OpenCombineScenarios.Scenarios.subjectMapFilterSink, baseline: Baseline.subjectMapFilterSink),
        Scenario(
            name: "subject send -> 100 sinks (per delivery)", operations: 10_000 * 100,
            ours: { OursScenarios.Scenarios.subjectToHundredSinks($0 / 100) },
            openCombine: { OpenCombineScenarios.Scenarios.subjectToHundredSinks($0 / 100) },
            baseline: { Baseline.subjectToHundredSinks($0 / 100) }),
        Scenario(
            name: "subscribe+cancel subject.map.sink", operations: 100_000,
            ours: OursScenarios.Scenarios.subscribeAndCancel,
            openCombine: OpenCombineScenarios.Scenarios.subscribeAndCancel, baseline: Baseline.subscribeAndCancel),
        Scenario(
            name: "chain of 50 maps", operations: 100_000, ours: OursScenarios.Scenarios.chainOfFiftyMaps,
            openCombine: OpenCombineScenarios.Scenarios.chainOfFiftyMaps, baseline: Baseline.chainOfFiftyMaps),
        Scenario(
            name: "CurrentValueSubject.value = (1 sink)", operations: 1_000_000,
            ours: OursScenarios.Scenarios.currentValueSet, openCombine: OpenCombineScenarios.Scenarios.currentValueSet,
            baseline: Baseline.currentValueSet),
        Scenario(
            name: "sequence, .max(1) per value", operations: 1_000_000, ours: OursScenarios.Scenarios.oneAtATime,
            openCombine: OpenCombineScenarios.Scenarios.oneAtATime, baseline: Baseline.oneAtATime),
        Scenario(
            name: "two threads sending into one subject", operations: 1_000_000,
            ours: OursScenarios.Scenarios.twoThreadsSending,
            openCombine: OpenCombineScenarios.Scenarios.twoThreadsSending,
            baseline: Baseline.twoThreadsSending),
        Scenario(
            name: "contended: 2 threads -> merge of two subjects", operations: 400_000,
            ours: OursScenarios.Scenarios.contendedMerge, openCombine: nil,
            baseline: { Baseline.contended($0, threads: 2, sinks: 1) }),
        Scenario(
            name: "contended: 2 threads -> flatMap of two inner subjects", operations: 400_000,
            ours: OursScenarios.Scenarios.contendedFlatMap,
            openCombine: OpenCombineScenarios.Scenarios.contendedFlatMap,
            baseline: { Baseline.contended($0, threads: 2, sinks: 1) }),
        Scenario(
            name: "contended: 2 threads -> receive(on:) a serial queue", operations: 200_000,
            ours: OursScenarios.Scenarios.contendedReceiveOn,
            openCombine: OpenCombineScenarios.Scenarios.contendedReceiveOn,
            baseline: { Baseline.contended($0, threads: 2, sinks: 1) }),
        Scenario(
            name: "Just(x).sink (subscribe+deliver)", operations: 200_000, ours: OursScenarios.Scenarios.justSink,
            openCombine: OpenCombineScenarios.Scenarios.justSink, baseline: Baseline.justSink),
        Scenario(
            name: "sequence.flatMap { Just($0) }", operations: 200_000, ours: OursScenarios.Scenarios.flatMapJust,
            openCombine: OpenCombineScenarios.Scenarios.flatMapJust, baseline: Baseline.flatMapJust),
        Scenario(
            name: "subject.scan.removeDuplicates.compactMap", operations: 1_000_000,
            ours: OursScenarios.Scenarios.scanRemoveDuplicatesCompactMap,
            openCombine: OpenCombineScenarios.Scenarios.scanRemoveDuplicatesCompactMap,
            baseline: Baseline.scanRemoveDuplicatesCompactMap),
        Scenario(
            name: "zip of two subjects", operations: 500_000, ours: OursScenarios.Scenarios.zipTwoSubjects,
            openCombine: OpenCombineScenarios.Scenarios.zipTwoSubjects, baseline: Baseline.zipTwoSubjects),
        Scenario(
            name: "combineLatest of two subjects", operations: 500_000,
            ours: OursScenarios.Scenarios.combineLatestTwoSubjects,
            openCombine: nil,
            baseline: Baseline.combineLatestTwoSubjects),
        Scenario(
            name: "@Published set (1 sink)", operations: 1_000_000,
            ours: OursScenarios.Scenarios.publishedSet, openCombine: OpenCombineScenarios.Scenarios.publishedSet,
            baseline: Baseline.publishedSet),
        Scenario(
            name: "receive(on:) a serial DispatchQueue", operations: 200_000,
            ours: OursScenarios.Scenarios.receiveOnSerialQueue,
            openCombine: OpenCombineScenarios.Scenarios.receiveOnSerialQueue, baseline: Baseline.receiveOnSerialQueue),
        // Clock scheduler (issue 28): the cost of a schedule and a cancel with many actions pending,
        // and `delay` on it against `delay` on a DispatchQueue. OpenCombine has no clock scheduler:
        // its column for the clock rows is its `delay` on a DispatchQueue.
        Scenario(
            name: "delay 1 ms on a serial DispatchQueue (per value)", operations: 100_000,
            ours: OursScenarios.Scenarios.delayOnQueue, openCombine: OpenCombineScenarios.Scenarios.delayOnQueue,
            baseline: Baseline.receiveOnSerialQueue),
        Scenario(
            name: "delay 1 ms on ContinuousClock().scheduler (per value; OpenCombine: on a DispatchQueue)",
            operations: 100_000, ours: OursScenarios.Scenarios.delayOnClockScheduler,
            openCombine: OpenCombineScenarios.Scenarios.delayOnQueue, baseline: Baseline.receiveOnSerialQueue),
    ]
    + [1_000, 10_000, 100_000].map { pending in
        Scenario(
            name: "clock scheduler: schedule+cancel with \(pending) pending", operations: 10_000,
            ours: { OursScenarios.Scenarios.clockScheduleAndCancel($0, pending: pending) }, openCombine: nil,
            baseline: Baseline.scheduleAndCancel)
    } + [
        Scenario(
            name: "debounce on a virtual-time scheduler (per value in)", operations: 200_000,
            ours: OursScenarios.Scenarios.debounceVirtualTime,
            openCombine: OpenCombineScenarios.Scenarios.debounceVirtualTime, baseline: Baseline.debounceVirtualTime),
        Scenario(
            name: "merge of two subjects", operations: 1_000_000, ours: OursScenarios.Scenarios.mergeTwoSubjects,
            openCombine: nil, baseline: Baseline.mergeTwoSubjects),
        // Swift concurrency bridges (issue 18). OpenCombine has no bridge: its column runs what users
        // write by hand without one (a Future and a Task per value; a task feeding a subject).
        Scenario(
            name: "async: asyncMap (per value; OpenCombine: flatMap of Future+Task)", operations: 20_000,
            ours: OursScenarios.Scenarios.asyncMapSequence,
            openCombine: OpenCombineScenarios.Scenarios.futureTaskFlatMap, baseline: Baseline.asyncLoop),
        Scenario(
            name: "async: flatMap of Future+Task by hand (per value)", operations: 20_000,
            ours: OursScenarios.Scenarios.futureTaskFlatMap,
            openCombine: OpenCombineScenarios.Scenarios.futureTaskFlatMap, baseline: Baseline.asyncLoop),
        Scenario(
            name: "async: AsyncSequence.publisher (per element; OpenCombine: task feeding a subject)",
            operations: 100_000, ours: OursScenarios.Scenarios.asyncSequencePublisher,
            openCombine: OpenCombineScenarios.Scenarios.asyncSequenceThroughSubject, baseline: Baseline.forAwait),
        Scenario(
            name: "async: AsyncSequence.publisher.values round trip (per element)", operations: 100_000,
            ours: OursScenarios.Scenarios.valuesRoundTrip, openCombine: nil, baseline: Baseline.forAwait),
    ]

let liveSubscriptionCount = 100_000

/// The peak backlog, as package-benchmark records a figure of our own: not scaled by the
/// number of operations.
let peakBacklogMetric = BenchmarkMetric.custom("peak backlog", useScalingFactor: false)

/// The time `CombineTrace.stop()` takes, measured inside the scenario (nanoseconds, in all).
let traceStopMetric = BenchmarkMetric.custom("stop ns", useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 7)

    for scenario in scenarios {
        let variants: [(String, (@Sendable (Int) -> Int)?)] = [
            ("ours", scenario.ours), ("OpenCombine", scenario.openCombine), ("baseline", scenario.baseline),
        ]
        for (variant, body) in variants {
            guard let body else { continue }
            // The contended scenarios of this library also report the peak backlog: the most
            // events queued for one subscriber's delivering thread during the run.
            let reportsPeak = variant == "ours" && scenario.name.hasPrefix("contended")
            var configuration = Benchmark.defaultConfiguration
            if reportsPeak { configuration.metrics.append(peakBacklogMetric) }
            Benchmark("\(scenario.name) | \(variant) | \(scenario.operations)", configuration: configuration) {
                benchmark in
                if reportsPeak { OursScenarios.Scenarios.resetPeakBacklog() }
                for _ in benchmark.scaledIterations {
                    blackHole(body(scenario.operations))
                }
                if reportsPeak, let peak = OursScenarios.Scenarios.peakBacklog {
                    benchmark.measurement(peakBacklogMetric, peak)
                }
            }
        }
    }

    // `CombineTrace.stop()` over a full ring: its own time per event written (the recording
    // before it is not counted), at two sizes, to show it is linear.
    for events in [10_000, 100_000] {
        Benchmark(
            "CombineTrace.stop() of a full ring of \(events) events (per event) | ours | \(events)",
            configuration: .init(metrics: [traceStopMetric], maxDuration: .seconds(5), maxIterations: 5)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                benchmark.measurement(traceStopMetric, OursScenarios.Scenarios.traceStopNanoseconds(events))
            }
        }
    }

    // Bytes allocated while making `liveSubscriptionCount` subscriptions that stay alive
    // to the end of the iteration: an upper bound of the heap each live one holds.
    let liveVariants: [(String, @Sendable (Int) -> [Any])] = [
        ("ours", OursScenarios.Scenarios.liveSubscriptions),
        ("OpenCombine", OpenCombineScenarios.Scenarios.liveSubscriptions),
        ("baseline", Baseline.liveSubscriptions),
    ]
    for (variant, makeLive) in liveVariants {
        Benchmark(
            "heap bytes per live subject.map.sink | \(variant) | \(liveSubscriptionCount)",
            configuration: .init(
                metrics: [.mallocBytesCount, .mallocCountTotal], units: [.mallocBytesCount: .count], maxIterations: 3)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(makeLive(liveSubscriptionCount))
            }
        }
    }
}
