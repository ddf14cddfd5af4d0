// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Draws a marble diagram as SVG: the input lanes, the operator, and the output lanes, over the
/// same ticks. Values are labelled marbles (circles, or pills for longer labels), a completion
/// is a bar, a failure a cross; a triangle under a lane's axis, at the start of a tick, marks a
/// subscription and a dashed line a cancel, explained by a legend when the picture has any. Colours come from a style sheet in
/// the file that follows the reader's light or dark appearance; no external assets.
struct MarbleSVG {
    /// One lane: what happened at each tick, and where subscriptions began and were cancelled.
    struct Lane {
        enum Event: Equatable {
            case value(String)
            case finished
            case failure
        }
        struct Mark {
            enum Kind { case subscribed, cancelled }
            let tick: Int
            let kind: Kind
        }
        var title: String?
        var ticks: [[Event]]
        var marks: [Mark] = []
    }

    let inputs: [Lane]
    let operatorLabel: String
    let outputs: [Lane]
    let tickCount: Int

    private let laneHeight = 44
    private let boxHeight = 36
    private let radius = 13
    private let characterWidth = 7

    /// Wide enough for the widest tick: its marbles side by side, plus a gap.
    private var tickWidth: Int {
        let widest = (inputs + outputs).flatMap(\.ticks).map(groupWidth).max() ?? 0
        return max(36, widest + 14)
    }
    private var left: Int {
        let titles = (inputs + outputs).compactMap(\.title)
        return 16 + (titles.map(\.count).max().map { $0 * characterWidth + 10 } ?? 0)
    }
    /// Wide enough for every tick and for the operator's label.
    private var width: Int { max(left + 8 + tickWidth * tickCount + 40, left + operatorLabel.count * 8 + 40) }
    /// The kinds of mark the picture shows, for its legend.
    private func shows(_ kind: Lane.Mark.Kind) -> Bool {
        (inputs + outputs).contains { lane in lane.marks.contains { $0.tick < tickCount && $0.kind == kind } }
    }

    func render() -> String {
        var y = 8
        var body: [String] = []
        for lane in inputs {
            body.append(contentsOf: draw(lane, top: y))
            y += laneHeight
        }
        body.append(
            "<rect class=\"box\" x=\"\(left)\" y=\"\(y + 4)\" width=\"\(width - left - 16)\" height=\"\(boxHeight)\" rx=\"6\"/>"
        )
        body.append(
            "<text class=\"op\" x=\"\(left + (width - left - 16) / 2)\" y=\"\(y + 4 + boxHeight / 2 + 5)\">\(escape(operatorLabel))</text>"
        )
        y += boxHeight + 12
        for lane in outputs {
            body.append(contentsOf: draw(lane, top: y))
            y += laneHeight
        }
        if shows(.subscribed) || shows(.cancelled) {
            // The legend: what the marks in this picture mean.
            let mid = y + 6
            var x = left
            if shows(.subscribed) {
                body.append(triangle(x: x + 6, y: mid - 4))
                body.append("<text class=\"t\" x=\"\(x + 16)\" y=\"\(mid + 4)\">subscribed</text>")
                x += 100
            }
            if shows(.cancelled) {
                body.append("<path class=\"k\" d=\"M\(x + 2) \(mid - 8)V\(mid + 8)\"/>")
                body.append("<text class=\"t\" x=\"\(x + 10)\" y=\"\(mid + 4)\">cancelled</text>")
            }
            y += 24
        }
        let style = """
            <style>
            .axis{stroke:#3c3c43;stroke-width:1.5;fill:none}.end{stroke:#3c3c43;stroke-width:2.5}
            .box{fill:#f2f2f7;stroke:#3c3c43;stroke-width:1}.op{font:13px ui-monospace,Menlo,monospace;fill:#1c1c1e;text-anchor:middle}
            .v{stroke:#3c3c43;stroke-width:1}.l{font:bold 11px -apple-system,Helvetica,sans-serif;fill:#1c1c1e;text-anchor:middle}
            .t{font:11px -apple-system,Helvetica,sans-serif;fill:#3c3c43}.s{fill:#0a84ff}.k{stroke:#8e8e93;stroke-width:2;stroke-dasharray:3 2}
            .x{stroke:#d70015;stroke-width:2.5}
            .c0{fill:#ffd60a}.c1{fill:#64d2ff}.c2{fill:#ff9f0a}.c3{fill:#30d158}.c4{fill:#bf5af2}.c5{fill:#ff6961}
            @media (prefers-color-scheme:dark){.axis,.end,.v{stroke:#d1d1d6}.box{fill:#2c2c2e;stroke:#d1d1d6}.op{fill:#f2f2f7}.t{fill:#d1d1d6}.x{stroke:#ff453a}}
            </style>
            """
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(y)" viewBox="0 0 \(width) \(y)" role="img">
            \(style)
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    private func draw(_ lane: Lane, top: Int) -> [String] {
        let mid = top + laneHeight / 2
        let end = width - 16
        var out: [String] = []
        if let title = lane.title {
            out.append("<text class=\"t\" x=\"6\" y=\"\(mid + 4)\">\(escape(title))</text>")
        }
        out.append(
            "<path class=\"axis\" d=\"M\(left) \(mid)H\(end)M\(end - 7) \(mid - 5)L\(end) \(mid)L\(end - 7) \(mid + 5)\"/>"
        )
        for mark in lane.marks where mark.tick < tickCount {
            let x = centre(of: mark.tick)
            switch mark.kind {
            // A subscription happens at the start of its tick, before that tick's events.
            case .subscribed: out.append(triangle(x: x - tickWidth / 2, y: mid + 6))
            case .cancelled: out.append("<path class=\"k\" d=\"M\(x) \(mid - 17)V\(mid + 17)\"/>")
            }
        }
        for (tick, events) in lane.ticks.enumerated() {
            // Several events in one tick sit side by side: each value takes its marble's width,
            // a completion after it stands just past its edge.
            var x = centre(of: tick) - groupWidth(events) / 2 + (events.first.map(width) ?? 0) / 2
            var previous: Lane.Event?
            for event in events {
                if let previous {
                    x += step(from: previous, to: event)
                }
                previous = event
                switch event {
                case .value(let label):
                    let half = width(event) / 2
                    out.append(
                        "<rect class=\"v c\(colour(of: label))\" x=\"\(x - half)\" y=\"\(mid - radius)\" width=\"\(half * 2)\" height=\"\(radius * 2)\" rx=\"\(radius)\"/>"
                            + "<text class=\"l\" x=\"\(x)\" y=\"\(mid + 4)\">\(escape(label))</text>")
                case .finished:
                    out.append("<path class=\"end\" d=\"M\(x) \(mid - 12)V\(mid + 12)\"/>")
                case .failure:
                    out.append(
                        "<path class=\"x\" d=\"M\(x - 8) \(mid - 8)L\(x + 8) \(mid + 8)M\(x + 8) \(mid - 8)L\(x - 8) \(mid + 8)\"/>"
                    )
                }
            }
        }
        return out
    }

    /// The width of one tick's events drawn side by side, as `draw` places them.
    private func groupWidth(_ events: [Lane.Event]) -> Int {
        guard let first = events.first, let last = events.last else { return 0 }
        let steps = zip(events, events.dropFirst()).map { step(from: $0, to: $1) }.reduce(0, +)
        return width(first) / 2 + steps + width(last) / 2
    }

    /// How far one event's centre is from the previous one's in the same tick.
    private func step(from previous: Lane.Event, to event: Lane.Event) -> Int {
        width(previous) / 2 + (event == .finished || event == .failure ? 6 : width(event) / 2 + 2)
    }

    /// The middle of a tick; the axis starts a little before the first tick.
    private func centre(of tick: Int) -> Int { left + 8 + tickWidth / 2 + tick * tickWidth }

    /// A value's marble is a circle for up to two characters, else a pill as wide as its label;
    /// a completion or failure is drawn in no width.
    private func width(_ event: Lane.Event) -> Int {
        guard case .value(let label) = event else { return 0 }
        return max(radius * 2, label.count * characterWidth + 12)
    }

    private func triangle(x: Int, y: Int) -> String {
        "<path class=\"s\" d=\"M\(x) \(y - 5)L\(x + 5) \(y + 4)H\(x - 5)Z\"/>"
    }

    /// The same label always gets the same colour (from its characters), so a value that passes
    /// an operator unchanged keeps its colour.
    private func colour(of label: String) -> Int {
        Int(label.unicodeScalars.reduce(0) { $0 + $1.value } % 6)
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
