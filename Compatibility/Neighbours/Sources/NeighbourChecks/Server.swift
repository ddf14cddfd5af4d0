// SPDX-License-Identifier: Apache-2.0
import Combine
import Dispatch
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Hummingbird route that awaits a Combine `Future` (fulfilled on another queue), served on a
/// loopback port and fetched with URLSession: the response body.
public func serverRoute() async throws -> String {
    let router = Router()
    router.get("greeting") { _, _ -> String in
        await greeting(after: .milliseconds(20)).value
    }
    let (ports, port) = AsyncStream.makeStream(of: Int.self)
    // The server's own log lines (started, stopped) are not part of what the check prints.
    var logger = Logger(label: "neighbours")
    logger.logLevel = .warning
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            port.yield(channel.localAddress?.port ?? 0)
            port.finish()
        }, logger: logger)
    let services = ServiceGroup(services: [app], logger: logger)
    async let served: Void = services.run()
    var iterator = ports.makeAsyncIterator()
    guard let number = await iterator.next(), number > 0 else {
        await services.triggerGracefulShutdown()
        try await served
        return "no port"
    }
    let body: String
    do {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(number)/greeting")!)
        body = String(decoding: data, as: UTF8.self)
    } catch {
        body = "request failed: \(error)"
    }
    await services.triggerGracefulShutdown()
    try await served
    return body
}

/// A `Future` that a `delay` on a global queue fulfils.
private func greeting(after delay: DispatchTimeInterval) -> Future<String, Never> {
    final class Holder {
        var cancellable: AnyCancellable?
    }
    return Future { promise in
        let holder = Holder()
        holder.cancellable = Just("hello from a Future")
            .delay(for: .init(delay), scheduler: DispatchQueue.global())
            .sink { text in
                promise(.success(text))
                holder.cancellable = nil
            }
    }
}
