// SPDX-License-Identifier: Apache-2.0
extension Subscribers.Demand {
    /// Traps where Apple's Combine traps: a subscription must not be asked for zero values.
    @inline(__always)
    func assertNonZero(file: StaticString = #fileID, line: UInt = #line) {
        precondition(self != .none, "API Violation: demand must not be zero", file: file, line: line)
    }
}
