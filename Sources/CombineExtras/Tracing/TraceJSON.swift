// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Writes the events of a ring as Chrome trace-event JSON, straight into bytes: no dictionary
/// per event, no serialiser, keys in sorted order. What it holds beyond the ring is its output
/// (all of it for ``TraceJSON/data(of:)``, a chunk for ``TraceJSON/write(_:to:)``) and one entry
/// per track and pipeline the ring mentions.
struct TraceJSON {
    private var bytes: [UInt8] = []
    /// Where full chunks go; `nil` keeps everything in `bytes`.
    private let sink: ((inout [UInt8]) throws -> Void)?
    private static let chunk = 1 << 20

    private init(sink: ((inout [UInt8]) throws -> Void)?) {
        self.sink = sink
        bytes.reserveCapacity(sink == nil ? 1 << 16 : Self.chunk + 4_096)
    }

    /// The whole trace as one JSON document.
    static func data(of ring: TraceRing) -> Data {
        var writer = TraceJSON(sink: nil)
        // Without a sink nothing throws.
        try? writer.document(of: ring)
        return Data(writer.bytes)
    }

    /// Writes the trace to `url` in chunks, through a file beside it that replaces it at the end.
    static func write(_ ring: TraceRing, to url: URL) throws {
        let partial = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: partial)
            defer { try? handle.close() }
            var writer = TraceJSON { bytes in
                try handle.write(contentsOf: bytes)
                bytes.removeAll(keepingCapacity: true)
            }
            try writer.document(of: ring)
            try writer.sink?(&writer.bytes)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        if FileManager.default.fileExists(atPath: url.path) {
            _ = try FileManager.default.replaceItemAt(url, withItemAt: partial)
        } else {
            try FileManager.default.moveItem(at: partial, to: url)
        }
    }

    // MARK: The document

    /// Metadata naming each pipeline (a process) and each track (a thread of it), then the
    /// events oldest first. A slice whose beginning the ring dropped is left out.
    private mutating func document(of ring: TraceRing) throws {
        var tracks: [Int: TraceTrack] = [:]
        ring.forEachEvent { event in tracks[event.track.id] = event.track }
        append("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[")
        var first = true
        var pipelines: [Int: String] = [:]
        for track in tracks.values { pipelines[track.pipeline] = track.pipelineName }
        for (pipeline, name) in pipelines.sorted(by: { $0.key < $1.key }) {
            separate(&first)
            append("{\"args\":{\"name\":")
            string("pipeline \(pipeline): \(name)")
            append("},\"name\":\"process_name\",\"ph\":\"M\",\"pid\":")
            integer(pipeline)
            append(",\"tid\":0}")
        }
        for track in tracks.values.sorted(by: { $0.id < $1.id }) {
            separate(&first)
            append("{\"args\":{\"name\":")
            string(track.parent.map { "\(track.name) (upstream of track \($0))" } ?? track.name)
            append("},\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":")
            integer(track.pipeline)
            append(",\"tid\":")
            integer(track.id)
            append("},{\"args\":{\"sort_index\":")
            integer(track.id)
            append("},\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":")
            integer(track.pipeline)
            append(",\"tid\":")
            integer(track.id)
            append("}")
        }
        tracks.removeAll()
        var open: [Int: Int] = [:]  // slices begun and not ended, per track
        try ring.forEachEvent { event in
            if event.kind == .subscribeEnd {
                guard open[event.track.id, default: 0] > 0 else { return }
                open[event.track.id, default: 0] -= 1
            } else if event.kind == .subscribeBegin {
                open[event.track.id, default: 0] += 1
            }
            separate(&first)
            self.event(event)
            if event.kind == .value || event.kind == .request { counter(event) }
            if bytes.count >= Self.chunk, let sink { try sink(&bytes) }
        }
        append("]}")
    }

    /// `{"args":{…,"thread":…},"name":…,"ph":…,"pid":…,["s":"t",]"tid":…,"ts":…}`
    private mutating func event(_ event: TraceEvent) {
        append("{\"args\":{")
        if case .none = event.detail {
        } else {
            switch event.kind {
            case .request: append("\"demand\":")
            case .failure: append("\"error\":")
            case .subscription: append("\"subscription\":")
            default: append("\"value\":")
            }
            switch event.detail {
            case .none: break
            case .text(let text): string(text)
            case .integer(let value):
                bytes.append(UInt8(ascii: "\""))
                integer(value)
                bytes.append(UInt8(ascii: "\""))
            case .request(let max?):
                append("\"max(")
                integer(max)
                append(")\"")
            case .request(nil): append("\"unlimited\"")
            }
            append(",")
        }
        append("\"thread\":")
        integer(Int(truncatingIfNeeded: event.thread))
        append("},\"name\":\"")
        switch event.kind {
        case .subscribeBegin, .subscribeEnd: append("subscribe")
        case .subscription: append("subscription")
        case .value: append("value")
        case .finished: append("finished")
        case .failure: append("failure")
        case .request: append("request")
        case .cancel: append("cancel")
        }
        switch event.kind {
        case .subscribeBegin: append("\",\"ph\":\"B\",\"pid\":")
        case .subscribeEnd: append("\",\"ph\":\"E\",\"pid\":")
        default: append("\",\"ph\":\"i\",\"pid\":")
        }
        integer(event.track.pipeline)
        if event.kind != .subscribeBegin && event.kind != .subscribeEnd { append(",\"s\":\"t\"") }
        append(",\"tid\":")
        integer(event.track.id)
        append(",\"ts\":")
        microseconds(event.time)
        append("}")
    }

    /// The track's outstanding demand after a value or a request, as a counter.
    private mutating func counter(_ event: TraceEvent) {
        append(",{\"args\":{")
        if let demand = event.demand {
            append("\"demand\":")
            integer(demand)
        } else {
            append("\"unlimited\":1")
        }
        append("},\"id\":")
        integer(event.track.id)
        append(",\"name\":\"demand\",\"ph\":\"C\",\"pid\":")
        integer(event.track.pipeline)
        append(",\"tid\":")
        integer(event.track.id)
        append(",\"ts\":")
        microseconds(event.time)
        append("}")
    }

    // MARK: Bytes

    private mutating func separate(_ first: inout Bool) {
        if first { first = false } else { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    private mutating func unsigned(_ value: UInt) {
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: a UInt has at most 20 digits
        withUnsafeMutableBytes(of: &buffer) { digits in
            var rest = value
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: digits[start...])
        }
    }

    /// Nanoseconds as microseconds with three decimals (`12.345`).
    private mutating func microseconds(_ nanoseconds: UInt64) {
        unsigned(UInt(truncatingIfNeeded: nanoseconds / 1_000))
        bytes.append(UInt8(ascii: "."))
        let fraction = Int(nanoseconds % 1_000)
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0..<0x20:
                append("\\u00")
                let hex: StaticString = "0123456789abcdef"
                hex.withUTF8Buffer { digits in
                    bytes.append(digits[Int(byte >> 4)])
                    bytes.append(digits[Int(byte & 0xF)])
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
