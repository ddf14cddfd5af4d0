// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSchedulers
import Dependencies
import Dispatch

// swift-dependencies' `mainQueue`, declared by the service itself: with swift-dependencies'
// `CombineSchedulers` trait off (Package.swift), the dependency value is the same name, type and
// defaults as swift-dependencies' own (the main queue live, an unimplemented scheduler in tests).
// `import Combine` is needed here: `DispatchQueue`'s conformance to `Scheduler` is Combine's.
extension DependencyValues {
    /// The main queue as a type-erased scheduler: `@Dependency(\.mainQueue) var mainQueue`.
    public var mainQueue: AnySchedulerOf<DispatchQueue> {
        get { self[MainQueueKey.self] }
        set { self[MainQueueKey.self] = newValue }
    }
}

private enum MainQueueKey: DependencyKey {
    static let liveValue = AnySchedulerOf<DispatchQueue>.main
    static let testValue = AnySchedulerOf<DispatchQueue>.unimplemented(#"@Dependency(\.mainQueue)"#)
}
