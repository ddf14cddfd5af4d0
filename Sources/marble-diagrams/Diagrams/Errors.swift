// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting

/// Handling failures: replacing a failed upstream, subscribing again, or insisting there is none.
@MainActor let errorDiagrams: [Diagram] = [
    Diagram(name: "catch", inputs: ["-a-b-#"], label: "catch { _ in Just(\"z\") }") { _, x in
        x[0].catch { _ in Just("z") }
    },
    Diagram(
        name: "tryCatch", inputs: [cold("-a-#", "upstream"), hot("-----1-2|", "fallback")],
        label: "tryCatch { _ in fallback }"
    ) { _, x in
        x[0].tryCatch { _ in x[1] }
    },
    Diagram(name: "retry", inputs: ["-a-#"], label: "retry(2)", ticks: 11) { _, x in x[0].retry(2) },
    Diagram(name: "assertNoFailure", inputs: ["-a-b-|"], label: "assertNoFailure()") { _, x in
        x[0].assertNoFailure()
    },
]
