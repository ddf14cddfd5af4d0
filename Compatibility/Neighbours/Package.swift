// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
// A user's package with swift-combine beside packages of the ecosystem that use Combine where it
// exists: built from clean as the article "Using swift-combine with other packages" says, by
// `scripts/check-neighbours.sh`, which places it next to a folder `swift-combine` (this checkout)
// and a made OpenCombine stand-in, and checks what each program prints.
import PackageDescription

let package = Package(
    name: "Neighbours",
    dependencies: [
        .package(path: "../swift-combine"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/pointfreeco/combine-schedulers", from: "1.2.2"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/CoreOffice/XMLCoder", from: "0.18.2"),
        // Through the mirror, the stand-in: code of the user's own written for OpenCombine.
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "Neighbours",
            dependencies: [
                .product(name: "Combine", package: "swift-combine"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "XMLCoder", package: "XMLCoder"),
                .product(name: "OpenCombineShim", package: "OpenCombine"),
            ]),
        .executableTarget(
            name: "DependenciesClient",
            dependencies: [
                .product(name: "Combine", package: "swift-combine"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]),
    ]
)
