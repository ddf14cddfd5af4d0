// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
// 6.2 is the oldest toolchain the package claims: its tests use exit tests (Swift Testing's
// `#expect(processExitsWith:)`, new in 6.2). The package is built and tested with 6.3.1.
import PackageDescription

// On Apple's platforms the system framework is the `Combine` module: this package then
// builds only the modules that sit on top of it (CombineTesting, CombineExtras) against the
// system one.
//
// Every platform builds the lock and the serial-delivery engine (CombineSynchronization, on the
// small C target CombineSystem, the library's only calls into the operating system): `Combine`
// and the modules on top of it share them.
#if canImport(Darwin)
let combineOnThisPlatform: [Target] = []
let combineProducts: [Product] = []
let combineDependency: [Target.Dependency] = ["CombineSynchronization"]
#else
let combineOnThisPlatform: [Target] = [
    .target(name: "Combine", dependencies: ["CombineSynchronization", "CombineSystem"], path: "Sources/Combine")
]
let combineProducts: [Product] = [.library(name: "Combine", targets: ["Combine"])]
let combineDependency: [Target.Dependency] = ["Combine", "CombineSynchronization"]
#endif

let synchronization: [Target] = [
    .target(
        name: "CombineSystem", path: "Sources/CombineSystem",
        linkerSettings: [.linkedLibrary("Synchronization", .when(platforms: [.windows]))]),
    .target(name: "CombineSynchronization", dependencies: ["CombineSystem"], path: "Sources/CombineSynchronization"),
]

let package = Package(
    name: "swift-combine",
    // On Apple's platforms only CombineTesting, CombineExtras and the demo are built, against the
    // system's Combine; the shared lock needs `Synchronization.Atomic` (macOS 15 and its peers).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: combineProducts + [
        .library(name: "CombineTesting", targets: ["CombineTesting"]),
        .library(name: "CombineExtras", targets: ["CombineExtras"]),
        .executable(name: "combine-demo", targets: ["combine-demo"]),
    ],
    targets: synchronization + combineOnThisPlatform + [
        .target(name: "CombineTesting", dependencies: combineDependency),
        .target(name: "CombineExtras", dependencies: combineDependency),
        .executableTarget(
            name: "combine-demo", dependencies: combineDependency + ["CombineTesting", "CombineExtras"]),
        // Helpers shared by both test targets, and the tests' own `Sendable` conformances of
        // Combine's types (Tests/TestSupport/SendableWorkaround.swift).
        .target(name: "TestSupport", dependencies: combineDependency, path: "Tests/TestSupport"),
        .testTarget(name: "CombineTests", dependencies: combineDependency + ["CombineTesting", "TestSupport"]),
        .testTarget(
            name: "CombineExtrasTests",
            dependencies: combineDependency + ["CombineTesting", "CombineExtras", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
