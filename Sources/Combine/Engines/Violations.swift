// SPDX-License-Identifier: Apache-2.0
extension Subscribers.Demand {
    /// Traps where Apple's Combine traps: a subscription must not be asked for zero values.
    @inline(__always)
    func assertNonZero(file: StaticString = #fileID, line: UInt = #line) {
        apiPrecondition(self != .none, "API Violation: demand must not be zero", file: file, line: line)
    }
}

/// Checks a rule of the API, and stops the program naming the rule when it is broken, in every
/// build. The library's checks go through here instead of `precondition`: an optimised build
/// keeps a precondition's check but drops its message (the program then stops with only
/// "precondition failure"), while a `fatalError` prints its message in every build.
@inlinable
@inline(__always)
func apiPrecondition(
    _ rule: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if _slowPath(!rule()) { apiViolation(message(), file: file, line: line) }
}

/// Stops the program for a broken rule, naming it (see `apiPrecondition(_:_:file:line:)`).
@usableFromInline
@inline(never)
func apiViolation(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
