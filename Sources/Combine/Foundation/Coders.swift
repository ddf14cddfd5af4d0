// SPDX-License-Identifier: Apache-2.0
// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Foundation)
import Foundation

// Foundation's coders work with `encode(encoder:)` and `decode(type:decoder:)`, as on
// Apple's platforms.

extension JSONEncoder: TopLevelEncoder {}

extension JSONDecoder: TopLevelDecoder {}

extension PropertyListEncoder: TopLevelEncoder {}

extension PropertyListDecoder: TopLevelDecoder {}
#endif
