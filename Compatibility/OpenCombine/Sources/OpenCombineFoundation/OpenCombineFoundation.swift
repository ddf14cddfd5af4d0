// SPDX-License-Identifier: Apache-2.0
@_exported import Combine
public import Foundation
public import OpenCombine

extension RunLoop: OCombineSchedulerProviding {}

extension OperationQueue: OCombineSchedulerProviding {}

extension OCombineScheduler where Base == RunLoop {
    /// The run loop this scheduler runs its actions on.
    public var runLoop: RunLoop { base }
}

extension OCombineScheduler where Base == OperationQueue {
    /// The operation queue this scheduler adds its actions to.
    public var queue: OperationQueue { base }
}
