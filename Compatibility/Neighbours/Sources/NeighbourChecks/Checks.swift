// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSchedulers
import Foundation
import GRDB
import XMLCoder
import Yams

/// GRDB's publishers exist only where GRDB's sources see `canImport(Combine)`: an in-memory
/// database observed through `ValueObservation.publisher`.
public func grdbObservation() throws -> String {
    let database = try DatabaseQueue()
    try database.write { db in
        try db.create(table: "scientist") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("name", .text).notNull()
        }
    }
    let names = Recorder<String>()
    let observation = ValueObservation.tracking { db in
        try String.fetchAll(db, sql: "SELECT name FROM scientist ORDER BY id")
    }
    let cancellable = observation.publisher(in: database, scheduling: .async(onQueue: DispatchQueue(label: "grdb")))
        .map { $0.joined(separator: ",") }
        .sink(receiveCompletion: { _ in }, receiveValue: names.append)
    _ = names.awaitNext()
    try database.write { try $0.execute(sql: "INSERT INTO scientist (name) VALUES ('ada')") }
    _ = names.awaitNext()
    try database.write { try $0.execute(sql: "INSERT INTO scientist (name) VALUES ('grace')") }
    let seen = names.awaitNext()
    cancellable.cancel()
    return seen.map { "[\($0)]" }.joined(separator: " ")
}

/// combine-schedulers' test scheduler drives a debounce, and its immediate scheduler a delay.
public func schedulers() -> String {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let debounced = Recorder<Int>()
    let debounce = subject.debounce(for: .seconds(1), scheduler: scheduler).sink(receiveValue: debounced.append)
    subject.send(1)
    scheduler.advance(by: .milliseconds(500))
    subject.send(2)
    scheduler.advance(by: .milliseconds(999))
    let early = debounced.received
    scheduler.advance(by: .milliseconds(1))
    debounce.cancel()
    let delayed = Recorder<Int>()
    let delay = Just(3).delay(for: .seconds(5), scheduler: DispatchQueue.immediate).sink(receiveValue: delayed.append)
    delay.cancel()
    return "debounce \(early) then \(debounced.received), immediate delay \(delayed.received)"
}

struct Point: Codable, Equatable, Sendable {
    var x: Int
    var y: Int
}

/// Yams' and XMLCoder's decoders are `TopLevelDecoder`s only where they see `canImport(Combine)`.
public func coders() -> String {
    let yaml = Recorder<Point>()
    let fromYAML = Just(Data("x: 1\ny: 2\n".utf8))
        .decode(type: Point.self, decoder: YAMLDecoder())
        .sink(receiveCompletion: { _ in }, receiveValue: yaml.append)
    fromYAML.cancel()
    let xml = Recorder<Point>()
    let throughXML = Just(Point(x: 3, y: 4))
        .encode(encoder: XMLEncoder())
        .decode(type: Point.self, decoder: XMLDecoder())
        .sink(receiveCompletion: { _ in }, receiveValue: xml.append)
    throughXML.cancel()
    return "YAML \(yaml.received.map { "(\($0.x),\($0.y))" }), XML \(xml.received.map { "(\($0.x),\($0.y))" })"
}
