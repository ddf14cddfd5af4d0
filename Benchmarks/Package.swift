// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// The benchmarks live in their own package so that the library keeps zero dependencies.
// Every scenario runs three times in one process: this library (`Combine`), OpenCombine
// 0.14.0 (`OpenCombine`), and a hand-written baseline. The scenario code is one file,
// compiled once against each library (`Scenarios/OpenCombine` links to `Scenarios/Ours`).
let package = Package(
    name: "swift-combine-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // With the trait `Logging`: CombineLogging's `log` has rows of its own.
        .package(name: "swift-combine", path: "..", traits: ["Logging"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "OursScenarios",
            dependencies: [
                "Baseline", .product(name: "Combine", package: "swift-combine"),
                .product(name: "CombineExtras", package: "swift-combine"),
                .product(name: "CombineLogging", package: "swift-combine"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Scenarios/Ours"),
        .target(
            name: "OpenCombineScenarios",
            dependencies: [
                "Baseline",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            path: "Scenarios/OpenCombine",
            swiftSettings: [.define("OPENCOMBINE")]),
        .target(name: "Baseline", path: "Scenarios/Baseline"),
        // Tools, kept out of the folder's top level: the benchmark plugin runs every executable
        // target whose folder sits directly in one named "Benchmarks" as a benchmark.
        // `swift run -c release Flood [ours|opencombine] [seconds]`: memory under a flood.
        .executableTarget(
            name: "Flood", dependencies: ["OursScenarios", "OpenCombineScenarios"], path: "Tools/Flood"),
        // `swift run -c release Probe <scenario> [ours|opencombine] [count]`: one scenario, for
        // callgrind (`atomics.sh`).
        .executableTarget(
            name: "Probe", dependencies: ["OursScenarios", "OpenCombineScenarios"], path: "Tools/Probe"),
        .executableTarget(
            name: "CombineBenchmarks",
            dependencies: [
                "OursScenarios", "OpenCombineScenarios", "Baseline",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/CombineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
