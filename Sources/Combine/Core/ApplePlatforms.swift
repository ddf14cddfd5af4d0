// SPDX-License-Identifier: Apache-2.0

// This module is Combine for the platforms that lack one. Built for one of Apple's platforms it
// would be a second module named `Combine` beside Apple's framework, and whichever the compiler
// found first would be imported by every target of the build: so the build stops here instead.
#if canImport(Darwin)
#error(
    """
    swift-combine's Combine target is not built for Apple's platforms, where `import Combine` is \
    Apple's framework. Depend on the product instead, \
    .product(name: "Combine", package: "swift-combine"): it brings this module only on the \
    platforms without Apple's (README, "Using it").
    """)
#endif
