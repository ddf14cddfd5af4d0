import Foundation

// Foundation's coders work with `encode(encoder:)` and `decode(type:decoder:)`, as on
// Apple's platforms.

extension JSONEncoder: TopLevelEncoder {}

extension JSONDecoder: TopLevelDecoder {}

extension PropertyListEncoder: TopLevelEncoder {}

extension PropertyListDecoder: TopLevelDecoder {}
