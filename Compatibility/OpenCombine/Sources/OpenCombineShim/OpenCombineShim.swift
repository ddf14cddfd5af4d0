// SPDX-License-Identifier: Apache-2.0
// `import OpenCombineShim`: swift-combine's `Combine`, with the `ocombine` scheduler names.
@_exported import Combine
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
