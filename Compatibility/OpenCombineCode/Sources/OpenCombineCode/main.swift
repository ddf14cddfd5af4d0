// SPDX-License-Identifier: Apache-2.0
import Foundation
import OpenCombineShim

// Code written for OpenCombine: `import OpenCombineShim` and a queue's `ocombine` scheduler.
let queue = DispatchQueue(label: "ocombine")
let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var received: [String] = []
let cancellable = [1, 2].publisher
    .receive(on: queue.ocombine)
    .map { "\($0)" }
    .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { received.append($0) })
_ = done.wait(timeout: .now() + 5)
cancellable.cancel()
let names: DispatchQueue.OCombine = queue.ocombine
let stride: DispatchQueue.OCombine.SchedulerTimeType.Stride = .milliseconds(5)
let later: DispatchQueue.SchedulerTimeType = names.now.advanced(by: stride)
let operations = OperationQueue()
let checks = [
    names.queue === queue, later > queue.now,
    RunLoop.main.ocombine.runLoop === RunLoop.main, operations.ocombine.queue === operations,
]
print("OpenCombine code: \(String(reflecting: Just<Int>.self)) \(received), names \(checks)")
