// swift-tools-version: 6.0
// SPDX-License-Identifier: Apache-2.0
// A stand-in for OpenCombine: a package with OpenCombine's product and module names whose modules
// re-export swift-combine's `Combine`. A package graph that asks for OpenCombine gets this package
// through a mirror (`scripts/opencombine-stand-in.sh` makes the git repository a mirror needs and
// prints the lines), so every dependency written for OpenCombine on Linux runs on swift-combine and
// no second Combine is built. See the article "Using swift-combine with other packages".
import PackageDescription

let package = Package(
    name: "OpenCombine",
    products: [
        .library(name: "OpenCombine", targets: ["OpenCombine"]),
        .library(name: "OpenCombineDispatch", targets: ["OpenCombineDispatch"]),
        .library(name: "OpenCombineFoundation", targets: ["OpenCombineFoundation"]),
        .library(name: "OpenCombineShim", targets: ["OpenCombineShim"]),
    ],
    dependencies: [
        // Where swift-combine is, as the package that uses this stand-in names it: the script
        // writes that location here (a mirrored package is versioned, and a versioned package may
        // not depend on a path). This line serves a checkout of the stand-in next to a clone
        // named swift-combine.
        .package(path: "../swift-combine")
    ],
    targets: [
        .target(name: "OpenCombine", dependencies: [.product(name: "Combine", package: "swift-combine")]),
        .target(name: "OpenCombineDispatch", dependencies: ["OpenCombine"]),
        .target(name: "OpenCombineFoundation", dependencies: ["OpenCombine"]),
        .target(
            name: "OpenCombineShim",
            dependencies: ["OpenCombine", "OpenCombineDispatch", "OpenCombineFoundation"]),
    ]
)
