// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting

/// Timing: the operators that act on a scheduler's clock (here the test scheduler's virtual
/// time; one tick is one second).
@MainActor let timeDiagrams: [Diagram] = [
    Diagram(name: "debounce", inputs: ["-ab---cd----|"], label: "debounce(for: 2 ticks, scheduler:)") { run, x in
        x[0].debounce(for: run.ticks(2), scheduler: run.scheduler)
    },
    Diagram(name: "throttle", inputs: ["-abc---de--f---|"], label: "throttle(for: 3 ticks, scheduler:, latest:)") {
        run in
        let x = run.inputs
        return [
            Output(x[0].throttle(for: run.ticks(3), scheduler: run.scheduler, latest: false), title: "latest: false"),
            Output(x[0].throttle(for: run.ticks(3), scheduler: run.scheduler, latest: true), title: "latest: true"),
        ]
    },
    Diagram(name: "delay", inputs: ["-a-b--c-|"], label: "delay(for: 2 ticks, scheduler:)", ticks: 12) { run, x in
        x[0].delay(for: run.ticks(2), scheduler: run.scheduler)
    },
    Diagram(name: "timeout", inputs: [hot("-a-b------c-|")], label: "timeout(3 ticks, scheduler:)") { run in
        let x = run.inputs
        return [
            Output(x[0].timeout(run.ticks(3), scheduler: run.scheduler), title: "by default"),
            Output(
                x[0].timeout(run.ticks(3), scheduler: run.scheduler, customError: { MarbleError("late") }),
                title: "customError:"),
        ]
    },
    Diagram(name: "measureInterval", inputs: ["-a---b-c-|"], label: "measureInterval(using:) in ticks") {
        run, x in
        x[0].measureInterval(using: run.scheduler).map { "\($0.nanoseconds / run.test.tick.nanoseconds)" }
    },
    Diagram(name: "receive-on", inputs: ["-a-b-|"], label: "receive(on: scheduler)") { run, x in
        x[0].receive(on: run.scheduler)
    },
    Diagram(name: "subscribe-on", inputs: ["-a-b-|"], label: "subscribe(on: scheduler)") { run, x in
        x[0].subscribe(on: run.scheduler)
    },
]
