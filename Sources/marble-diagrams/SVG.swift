// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Draws a marble diagram as SVG: the input lanes, the operator, and the output lane, over the
/// same ticks. Values are labelled circles, a completion is a bar, a failure a cross. Colours
/// come from a style sheet in the file that follows the reader's light or dark appearance; no
/// external assets.
struct MarbleSVG {
    /// One lane: what happened at each tick (`nil`: nothing).
    struct Lane {
        enum Event: Equatable {
            case value(String)
            case finished
            case failure
        }
        var ticks: [[Event]]
    }

    let inputs: [Lane]
    let operatorLabel: String
    let output: Lane
    let tickCount: Int

    private let left = 16
    private let tickWidth = 36
    private let laneHeight = 44
    private let boxHeight = 36
    private let radius = 13

    private var width: Int { left * 2 + tickWidth * tickCount + 24 }

    func render() -> String {
        var y = 8
        var body: [String] = []
        for lane in inputs {
            body.append(contentsOf: draw(lane, top: y))
            y += laneHeight
        }
        body.append(
            "<rect class=\"box\" x=\"\(left)\" y=\"\(y + 4)\" width=\"\(width - left * 2)\" height=\"\(boxHeight)\" rx=\"6\"/>"
        )
        body.append(
            "<text class=\"op\" x=\"\(width / 2)\" y=\"\(y + 4 + boxHeight / 2 + 5)\">\(escape(operatorLabel))</text>")
        y += boxHeight + 12
        body.append(contentsOf: draw(output, top: y))
        y += laneHeight
        let style = """
            <style>
            .axis{stroke:#3c3c43;stroke-width:1.5;fill:none}.end{stroke:#3c3c43;stroke-width:2.5}
            .box{fill:#f2f2f7;stroke:#3c3c43;stroke-width:1}.op{font:13px ui-monospace,Menlo,monospace;fill:#1c1c1e;text-anchor:middle}
            .v{stroke:#3c3c43;stroke-width:1}.l{font:bold 11px -apple-system,Helvetica,sans-serif;fill:#1c1c1e;text-anchor:middle}
            .x{stroke:#d70015;stroke-width:2.5}
            .c0{fill:#ffd60a}.c1{fill:#64d2ff}.c2{fill:#ff9f0a}.c3{fill:#30d158}.c4{fill:#bf5af2}.c5{fill:#ff6961}
            @media (prefers-color-scheme:dark){.axis,.end,.v{stroke:#d1d1d6}.box{fill:#2c2c2e;stroke:#d1d1d6}.op{fill:#f2f2f7}.x{stroke:#ff453a}}
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
        let end = width - left
        var out = [
            "<path class=\"axis\" d=\"M\(left) \(mid)H\(end)M\(end - 7) \(mid - 5)L\(end) \(mid)L\(end - 7) \(mid + 5)\"/>"
        ]
        for (tick, events) in lane.ticks.enumerated() {
            // Several events in one tick sit side by side: a value takes its circle's width, a
            // completion after it stands just past its edge.
            var x = left + tickWidth / 2 + tick * tickWidth
            for (index, event) in events.enumerated() {
                if index > 0 { x += event == .finished || event == .failure ? radius + 6 : radius * 2 + 2 }
                switch event {
                case .value(let label):
                    out.append(
                        "<circle class=\"v c\(colour(of: label))\" cx=\"\(x)\" cy=\"\(mid)\" r=\"\(radius)\"/>"
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

    /// The same label always gets the same colour (from its first character), so a value that
    /// passes an operator unchanged keeps its colour.
    private func colour(of label: String) -> Int {
        Int(label.unicodeScalars.first?.value ?? 0) % 6
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
