// SPDX-License-Identifier: Apache-2.0
import Foundation
import OpenCombineScenarios
import OursScenarios

// `swift run -c release Probe <scenario> [ours|opencombine] [count]`: runs one scenario once,
// for callgrind (`Benchmarks/atomics.sh`), which counts instructions and atomic operations
// per value. The scenario names are the functions of `Scenarios`.
let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: Probe <scenario> [ours|opencombine] [count]")
    exit(2)
}
let name = arguments[1]
let library = arguments.count > 2 ? arguments[2] : "ours"
let count = arguments.count > 3 ? Int(arguments[3]) ?? 100_000 : 100_000

typealias Body = (Int) -> Int
let ours: [String: Body] = [
    "subjectToOneSink": OursScenarios.Scenarios.subjectToOneSink,
    "subjectMapFilterSink": OursScenarios.Scenarios.subjectMapFilterSink,
    "scanRemoveDuplicatesCompactMap": OursScenarios.Scenarios.scanRemoveDuplicatesCompactMap,
    "currentValueSet": OursScenarios.Scenarios.currentValueSet,
    "publishedSet": OursScenarios.Scenarios.publishedSet,
    "subjectToHundredSinks": OursScenarios.Scenarios.subjectToHundredSinks,
    "sequenceMapFilterSink": OursScenarios.Scenarios.sequenceMapFilterSink,
    "contended2x1": { OursScenarios.Scenarios.contendedSubject($0, threads: 2, sinks: 1) },
    "contended4x1": { OursScenarios.Scenarios.contendedSubject($0, threads: 4, sinks: 1) },
    "twoThreadsSending": OursScenarios.Scenarios.twoThreadsSending,
    "subscribeAndCancel": OursScenarios.Scenarios.subscribeAndCancel,
    "justSink": OursScenarios.Scenarios.justSink,
    "tracedSubjectToOneSink": OursScenarios.Scenarios.tracedSubjectToOneSink,
    "filteredLogSubjectToOneSink": OursScenarios.Scenarios.filteredLogSubjectToOneSink,
    "subjectMapSinkAfterTrace": OursScenarios.Scenarios.subjectMapSinkAfterTrace,
    "subjectMapSink": OursScenarios.Scenarios.subjectMapSink,
    "tracedFourPipelines": { OursScenarios.Scenarios.fourPipelines($0, traced: true) },
    // Not a loop: the stack bytes per level of an erased map chain of `count` levels.
    "erasedChainStackPerLevel": { OursScenarios.Scenarios.erasedChainStackPerLevel(levels: $0, traced: false) },
    "tracedErasedChainStackPerLevel": { OursScenarios.Scenarios.erasedChainStackPerLevel(levels: $0, traced: true) },
    "mergeTwoSubjects": OursScenarios.Scenarios.mergeTwoSubjects,
    "zipTwoSubjects": OursScenarios.Scenarios.zipTwoSubjects,
    "combineLatestTwoSubjects": OursScenarios.Scenarios.combineLatestTwoSubjects,
    "flatMapJust": OursScenarios.Scenarios.flatMapJust,
    "contendedMerge": OursScenarios.Scenarios.contendedMerge,
    "contendedFlatMap": OursScenarios.Scenarios.contendedFlatMap,
    "contendedReceiveOn": OursScenarios.Scenarios.contendedReceiveOn,
]
let openCombine: [String: Body] = [
    "subjectToOneSink": OpenCombineScenarios.Scenarios.subjectToOneSink,
    "subjectMapFilterSink": OpenCombineScenarios.Scenarios.subjectMapFilterSink,
    "scanRemoveDuplicatesCompactMap": OpenCombineScenarios.Scenarios.scanRemoveDuplicatesCompactMap,
    "currentValueSet": OpenCombineScenarios.Scenarios.currentValueSet,
    "publishedSet": OpenCombineScenarios.Scenarios.publishedSet,
    "subjectToHundredSinks": OpenCombineScenarios.Scenarios.subjectToHundredSinks,
    "sequenceMapFilterSink": OpenCombineScenarios.Scenarios.sequenceMapFilterSink,
    "contended2x1": { OpenCombineScenarios.Scenarios.contendedSubject($0, threads: 2, sinks: 1) },
    "contended4x1": { OpenCombineScenarios.Scenarios.contendedSubject($0, threads: 4, sinks: 1) },
    "twoThreadsSending": OpenCombineScenarios.Scenarios.twoThreadsSending,
    "subscribeAndCancel": OpenCombineScenarios.Scenarios.subscribeAndCancel,
    "justSink": OpenCombineScenarios.Scenarios.justSink,
    "zipTwoSubjects": OpenCombineScenarios.Scenarios.zipTwoSubjects,
    "flatMapJust": OpenCombineScenarios.Scenarios.flatMapJust,
    "contendedFlatMap": OpenCombineScenarios.Scenarios.contendedFlatMap,
    "contendedReceiveOn": OpenCombineScenarios.Scenarios.contendedReceiveOn,
]
// One other thread first, as every app has: glibc skips the atomic operations of its mutexes
// (OpenCombine's locks) and of malloc while a process has only one thread.
let started = DispatchSemaphore(value: 0)
Thread { started.signal() }.start()
started.wait()

guard let body = (library == "opencombine" ? openCombine : ours)[name] else {
    print("unknown scenario \(name) for \(library)")
    exit(2)
}
// PROBE_REPEAT=n runs it n times in this process (default 1) and prints the median time per
// operation besides the checksum.
let repeats = max(1, Int(ProcessInfo.processInfo.environment["PROBE_REPEAT"] ?? "") ?? 1)
var times: [Double] = []
var checksum = 0
for _ in 0..<repeats {
    let start = DispatchTime.now().uptimeNanoseconds
    checksum = body(count)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count))
}
if repeats > 1 {
    print(checksum, String(format: "median %.1f ns/op, min %.1f", times.sorted()[repeats / 2], times.min()!))
} else {
    print(checksum)
}
