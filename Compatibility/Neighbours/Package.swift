// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
// A user's service with swift-combine beside unmodified packages of the ecosystem that use Combine
// where it exists, and a server: built from clean with one plain `swift build` (debug and release)
// and `swift test`, no mirror, flag or first step, by `scripts/check-neighbours.sh`, which places it
// next to a folder `swift-combine` (this checkout) and checks what its program prints.
//
// swift-dependencies is the one package that needs a recipe beside a server: its `CombineSchedulers`
// trait is off and the service declares `mainQueue` itself (Sources/NeighbourChecks/MainQueue.swift;
// the article "Using swift-combine with other packages" says why).
import PackageDescription

let package = Package(
    name: "Neighbours",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../swift-combine"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/pointfreeco/combine-schedulers", from: "1.2.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/CoreOffice/XMLCoder", from: "0.18.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own dependencies, named for the server's logger and graceful shutdown.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(
            url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1",
            traits: ["Clocks", "Foundation", "FoundationNetworking"]),
    ],
    targets: [
        .target(
            name: "NeighbourChecks",
            dependencies: [
                .product(name: "Combine", package: "swift-combine"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "XMLCoder", package: "XMLCoder"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]),
        .executableTarget(name: "Neighbours", dependencies: ["NeighbourChecks"]),
        // GRDB listed and linked, none of its API used: its own files must still agree on Combine.
        .executableTarget(
            name: "ListsGRDB",
            dependencies: [
                .product(name: "Combine", package: "swift-combine"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "NeighboursTests", dependencies: ["NeighbourChecks"]),
    ]
)
