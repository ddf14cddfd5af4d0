// swift-tools-version: 6.0
import PackageDescription

// On Apple's platforms the system framework is the `Combine` module: this package then
// builds only the modules that sit on top of it (CombineTesting, CombineExtras) against the
// system one.
//
// Every platform builds the lock and the serial-delivery engine (CombineSynchronization, on the
// small C target CombineFutex): the core and the modules on top of it share them.
#if canImport(Darwin)
let combineOnThisPlatform: [Target] = []
let combineProducts: [Product] = []
let combineDependency: [Target.Dependency] = ["CombineSynchronization"]
#else
let combineOnThisPlatform: [Target] = [
    .target(name: "Combine", dependencies: ["CombineSynchronization"], path: "Sources/Combine"),
]
let combineProducts: [Product] = [.library(name: "Combine", targets: ["Combine"])]
let combineDependency: [Target.Dependency] = ["Combine", "CombineSynchronization"]
#endif

let synchronization: [Target] = [
    .target(name: "CombineFutex", path: "Sources/CombineFutex"),
    .target(name: "CombineSynchronization", dependencies: ["CombineFutex"], path: "Sources/CombineSynchronization"),
]

let package = Package(
    name: "swift-combine",
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
        // Helpers shared by both test targets (no Combine in it).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CombineTests", dependencies: combineDependency + ["CombineTesting", "TestSupport"]),
        .testTarget(
            name: "CombineExtrasTests",
            dependencies: combineDependency + ["CombineTesting", "CombineExtras", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
