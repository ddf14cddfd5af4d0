// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
// A user's code written for OpenCombine, built beside swift-combine with OpenCombine mirrored to the
// stand-in that `scripts/opencombine-stand-in.sh --set-mirror` makes (scripts/check-neighbours.sh).
import PackageDescription

let package = Package(
    name: "OpenCombineCode",
    dependencies: [
        .package(path: "../swift-combine"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "OpenCombineCode",
            dependencies: [
                .product(name: "Combine", package: "swift-combine"),
                .product(name: "OpenCombineShim", package: "OpenCombine"),
            ])
    ]
)
