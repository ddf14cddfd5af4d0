// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting

/// Sharing: one upstream subscription serving several subscribers (drawn as two output lanes,
/// the second subscribing later; the input's marks show when the upstream was subscribed).
@MainActor let sharingDiagrams: [Diagram] = [
    Diagram(name: "share", inputs: [hot("-a-b-c-d-|")], label: "share()") { run in
        let shared = run.inputs[0].share()
        return [Output(shared, title: "sink 1"), Output(shared, at: 4, title: "sink 2")]
    },
    Diagram(
        name: "multicast-subject", inputs: [hot("-a-b-c-d-|")], label: "multicast(subject:), connect() at tick 2"
    ) { run in
        let multicast = run.inputs[0].multicast(subject: PassthroughSubject())
        run.at(2) { run.keep(multicast.connect()) }
        return [Output(multicast, title: "sink 1"), Output(multicast, at: 4, title: "sink 2")]
    },
    Diagram(
        name: "multicast", inputs: [hot("-a-b-c-d-|")], label: "multicast { PassthroughSubject() }, connect() at tick 2"
    ) { run in
        let multicast = run.inputs[0].multicast { PassthroughSubject() }
        run.at(2) { run.keep(multicast.connect()) }
        return [Output(multicast, title: "sink 1"), Output(multicast, at: 4, title: "sink 2")]
    },
    Diagram(
        name: "makeConnectable", inputs: [hot("-a-b-c-d-|")],
        label: "assertNoFailure().makeConnectable(), connect() at tick 4"
    ) {
        run in
        let connectable = run.inputs[0].assertNoFailure().makeConnectable()
        run.at(4) { run.keep(connectable.connect()) }
        return [Output(connectable)]
    },
    Diagram(
        name: "autoconnect", inputs: [hot("-a-b-c-d-|")], label: "assertNoFailure().makeConnectable().autoconnect()"
    ) { run in
        [Output(run.inputs[0].assertNoFailure().makeConnectable().autoconnect(), at: 2)]
    },
]
