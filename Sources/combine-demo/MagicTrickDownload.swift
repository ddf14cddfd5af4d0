// SPDX-License-Identifier: Apache-2.0
import Combine
import Foundation

/// The team's scenarios document (docs/SCENARIOS.md §2). Notifications carry JSON `Data` in
/// `userInfo["data"]`, decoded into a `MagicTrick`, and a decoding failure is replaced
/// inside `flatMap` so that the outer stream lives on; the names are received on the main
/// run loop, as a UI would.
struct MagicTrick: Codable {
    static let placeholder = MagicTrick(name: "[placeholder]")
    let name: String
}

func magicTrickDownload() {
    let center = NotificationCenter.default
    let trickDownloaded = Notification.Name("trickDownloaded")
    var names: [String] = []
    let cancellable = center.publisher(for: trickDownloaded)
        .map { notification in notification.userInfo?["data"] as? Data ?? Data() }
        .flatMap { data in
            Just(data)
                .decode(type: MagicTrick.self, decoder: JSONDecoder())
                .catch { error -> Just<MagicTrick> in
                    print("  decode failed (\(type(of: error))): replaced by the placeholder")
                    return Just(MagicTrick.placeholder)
                }
        }
        .map(\.name)
        .receive(on: RunLoop.main)
        .sink { name in
            names.append(name)
            print("  trick: \(name)")
        }
    for json in [#"{"name":"Floating Card"}"#, "not json", #"{"name":"Vanishing Coin"}"#] {
        print("  post \(json)")
        center.post(name: trickDownloaded, object: nil, userInfo: ["data": Data(json.utf8)])
    }
    // The names arrive on the main run loop: run it until all three are in.
    let deadline = Date().addingTimeInterval(5)
    while names.count < 3 && Date() < deadline {
        RunLoop.main.run(until: Date().addingTimeInterval(0.01))
    }
    print("  the stream is still alive after a bad payload: \(names)")
    cancellable.cancel()
}
