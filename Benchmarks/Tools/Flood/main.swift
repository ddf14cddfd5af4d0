// SPDX-License-Identifier: Apache-2.0
import Foundation
import OpenCombineScenarios
import OursScenarios

// Four threads flood one PassthroughSubject whose sink takes about a microsecond per value;
// the resident memory is printed once a second. With a bounded backlog it stays flat, and the
// program ends as soon as the senders stop.
let arguments = CommandLine.arguments
let library = arguments.count > 1 ? arguments[1] : "ours"
let seconds = arguments.count > 2 ? Int(arguments[2]) ?? 10 : 10
let start = Date()
let report: (Int, Double) -> Void = { second, megabytes in
    FileHandle.standardOutput.write(
        "t=\(second)s resident \(String(format: "%.1f", megabytes)) MiB\n".data(using: .utf8)!)
}
let sent: Int
switch library {
case "opencombine": sent = OpenCombineScenarios.Scenarios.flood(seconds: seconds, report: report)
default: sent = OursScenarios.Scenarios.flood(seconds: seconds, report: report)
}
let elapsed = Date().timeIntervalSince(start)
print("\(library): \(sent) values sent in \(seconds) s; every send returned after \(String(format: "%.1f", elapsed)) s")
