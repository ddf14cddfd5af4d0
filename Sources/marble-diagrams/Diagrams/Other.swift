// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation

/// A text stream that keeps nothing, for `print`'s picture.
struct Discarding: TextOutputStream {
    mutating func write(_ string: String) {}
}

/// Encoding, buffering, erasing and debugging: operators whose picture is mostly the values passing
/// through (the debugging ones act beside the stream, not on it).
@MainActor let otherDiagrams: [Diagram] = [
    Diagram(name: "encode", inputs: ["-1-2-|"], label: "encode(encoder: JSONEncoder()) as text") { _, x in
        x[0].map { number($0) }.encode(encoder: JSONEncoder()).map { String(decoding: $0, as: UTF8.self) }
    },
    Diagram(name: "decode", inputs: ["-1-2-x-|"], label: "decode(type: Int.self, decoder: JSONDecoder())") { _, x in
        x[0].map { Data($0.utf8) }.decode(type: Int.self, decoder: JSONDecoder())
    },
    Diagram(
        name: "buffer", inputs: [hot("-a-b-c-d-e-|")],
        label: "buffer(size: 2, prefetch: .byRequest, whenFull:); demand 1, then 4 at tick 8"
    ) { run in
        let x = run.inputs
        return [
            Output(
                x[0].buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest), title: ".dropNewest",
                requests: [0: 1, 8: 4]),
            Output(
                x[0].buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest), title: ".dropOldest",
                requests: [0: 1, 8: 4]),
        ]
    },
    Diagram(name: "eraseToAnyPublisher", inputs: ["-a-b-|"], label: "eraseToAnyPublisher()") { _, x in
        x[0].eraseToAnyPublisher()
    },
    Diagram(name: "print", inputs: ["-a-b-|"], label: "print(\"trace\", to: stream)") { _, x in
        x[0].print("trace", to: Discarding())
    },
    Diagram(name: "handleEvents", inputs: ["-a-b-|"], label: "handleEvents(receiveOutput: { … })") { _, x in
        x[0].handleEvents(receiveOutput: { _ in })
    },
    Diagram(name: "breakpoint", inputs: ["-a-b-|"], label: "breakpoint(receiveOutput: { _ in false })") { _, x in
        x[0].breakpoint(receiveOutput: { _ in false })
    },
    Diagram(name: "breakpointOnError", inputs: ["-a-b-|"], label: "breakpointOnError()") { _, x in
        x[0].breakpointOnError()
    },
]
