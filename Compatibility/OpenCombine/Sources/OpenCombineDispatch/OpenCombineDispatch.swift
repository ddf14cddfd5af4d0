// SPDX-License-Identifier: Apache-2.0
@_exported import Combine
public import Dispatch
public import OpenCombine

extension DispatchQueue: OCombineSchedulerProviding {}

extension OCombineScheduler where Base == DispatchQueue {
    /// The queue this scheduler runs its actions on.
    public var queue: DispatchQueue { base }
}
