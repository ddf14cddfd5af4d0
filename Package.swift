// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
// 6.2 is the oldest toolchain the package claims: its tests use exit tests (Swift Testing's
// `#expect(processExitsWith:)`, new in 6.2). The package is built and tested with 6.3.1.
import PackageDescription

// One manifest for every host: it is evaluated on the machine that builds, which is not always
// the machine the code runs on (a Mac cross-compiling for Linux, Android or the static Linux
// SDK), so what it declares does not depend on the host. What differs per platform is decided per
// target platform, by the conditions on target dependencies below and by `#if` in sources. (The
// one host question, whether to apply a build-tool plugin that acts only on Linux hosts, is
// `earlyModule` below.)
//
// The `Combine` target is this package's Combine, for the platforms that have no Combine of
// their own. On Apple's platforms `import Combine` must mean Apple's framework, so nothing here
// depends on our `Combine` there: every dependency on it carries the condition
// `combinePlatforms`, and the `Combine` product is the empty target `CombineProduct`, which
// depends on it under that condition. A client that names the product gets our module on the
// listed platforms and nothing on Apple's (SwiftPM builds a conditional dependency only for the
// platforms of its condition; a root package's target that is only depended on conditionally
// is left out of other platforms' builds too). Our module is thus never built beside Apple's,
// where it would shadow Apple's in the shared module folder; building it for an Apple platform
// by hand stops with an error (Sources/Combine/Core/ApplePlatforms.swift).
//
// Every platform builds the lock and the serial-delivery engine (CombineSynchronization, on the
// small C target CombineSystem, the library's only calls into the operating system): `Combine`
// and the modules on top of it share them.

/// The platforms on which `import Combine` is this package's module. (FreeBSD is not listed:
/// tools version 6.2, the oldest this package supports, has no condition for it.)
let combinePlatforms: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]
let ourCombine: Target.Dependency = .target(name: "Combine", condition: .when(platforms: combinePlatforms))
let combineDependency: [Target.Dependency] = [ourCombine, "CombineSynchronization"]

/// swift-log's module, under the trait `Logging`.
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"]))

/// The one thing the manifest decides by its host: the `Combine` target's build-tool plugin
/// (Plugins/EarlyCombineModule) is applied only when the manifest is read on Linux. The plugin
/// acts only for the host's own triple on a Linux host, so on any other host it would do nothing;
/// but SwiftPM runs a target's plugins even where the target is left out of the build (seen with
/// the stand-in for a Mac in scripts/check-manifest.sh), and on a Mac that would make Xcode ask
/// every user of this package to trust a plugin that never acts there. The declared products and
/// targets stay the same on every host (checked by scripts/check-manifest.sh).
#if os(Linux)
let earlyModule: [Target.PluginUsage] = ["EarlyCombineModule"]
#else
let earlyModule: [Target.PluginUsage] = []
#endif

let libraryTargets: [Target] = [
    .target(
        name: "CombineSystem", path: "Sources/CombineSystem",
        linkerSettings: [.linkedLibrary("Synchronization", .when(platforms: [.windows]))]),
    .target(name: "CombineSynchronization", dependencies: ["CombineSystem"], path: "Sources/CombineSynchronization"),
    .target(
        name: "Combine", dependencies: ["CombineSynchronization", "CombineSystem"], path: "Sources/Combine",
        plugins: earlyModule),
    // Writes `Combine`'s interface into the build's module folder before any compile job of a Linux
    // build, so that other packages' `#if canImport(Combine)` sees it in every file, with no build
    // order of ours to rely on (Plugins/EarlyCombineModule says when it does nothing).
    .plugin(name: "EarlyCombineModule", capability: .buildTool()),
    .target(name: "CombineProduct", dependencies: [ourCombine]),
]

let package = Package(
    name: "swift-combine",
    // On Apple's platforms CombineTesting, CombineExtras and the demo build against the system's
    // Combine; the shared lock needs `Synchronization.Atomic` (macOS 15 and its peers).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Combine", targets: ["CombineProduct"]),
        .library(name: "CombineTesting", targets: ["CombineTesting"]),
        .library(name: "CombineExtras", targets: ["CombineExtras"]),
        // `log(_:to:level:failureLevel:)` through swift-log, with the trait `Logging` (below).
        .library(name: "CombineLogging", targets: ["CombineLogging"]),
        .executable(name: "combine-demo", targets: ["combine-demo"]),
    ],
    // swift-log is this package's only dependency, and only under the trait `Logging`: a client
    // fetches it only when it enables the trait (`traits: ["Logging"]` on its `.package` line),
    // as one that uses `CombineLogging` does. Without the trait `CombineLogging` is empty.
    // `.ci/run` builds and tests with the trait.
    traits: [.trait(name: "Logging", description: "CombineLogging's log operator, through swift-log")],
    dependencies: [.package(url: "https://github.com/apple/swift-log", from: "1.16.0")],
    targets: libraryTargets + [
        .target(name: "CombineTesting", dependencies: combineDependency),
        .target(name: "CombineExtras", dependencies: combineDependency),
        .target(
            name: "CombineLogging", dependencies: combineDependency + [logging]),
        .executableTarget(
            name: "combine-demo", dependencies: combineDependency + ["CombineTesting", "CombineExtras"]),
        // Draws the operators' marble diagrams into the DocC catalogs (`swift run marble-diagrams`).
        .executableTarget(
            name: "marble-diagrams", dependencies: combineDependency + ["CombineTesting", "CombineExtras"]),
        // Helpers shared by both test targets, and the tests' own `Sendable` conformances of
        // Combine's types (Tests/TestSupport/SendableWorkaround.swift).
        .target(name: "TestSupport", dependencies: combineDependency, path: "Tests/TestSupport"),
        .testTarget(name: "CombineTests", dependencies: combineDependency + ["CombineTesting", "TestSupport"]),
        // The test helpers users get (TestSubscriber, TestPublisher, TestScheduler, marbles) on their own.
        .testTarget(
            name: "CombineTestingTests", dependencies: combineDependency + ["CombineTesting", "TestSupport"]),
        // The lock, the ring queue and the serial-delivery engine on their own.
        .testTarget(name: "CombineSynchronizationTests", dependencies: ["CombineSynchronization", "TestSupport"]),
        .testTarget(
            name: "CombineExtrasTests",
            dependencies: combineDependency + ["CombineTesting", "CombineExtras", "TestSupport"]),
        .testTarget(
            name: "CombineLoggingTests",
            dependencies: combineDependency + [
                "CombineLogging", "TestSupport", logging,
            ]),
    ],
    swiftLanguageModes: [.v6]
)
