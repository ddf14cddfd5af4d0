// SPDX-License-Identifier: Apache-2.0

// The `Combine` product's own target, empty on purpose. It depends on the `Combine` target only
// on the platforms that lack Apple's framework (Package.swift, `combinePlatforms`), so a package
// that depends on the product builds this package's `Combine` there and Apple's stays the only
// `Combine` on Apple's platforms, with the same line in the client's manifest for both.
