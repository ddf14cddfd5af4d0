// SPDX-License-Identifier: Apache-2.0
/// Passes an upstream failure on unchanged: the failure conversion of the operators whose
/// failure type is their upstream's.
@inlinable
func sameFailure<Failure: Error>(_ failure: Failure) -> Failure {
    failure
}

/// Widens an upstream failure to `any Error`: the failure conversion of the `try` operators.
@inlinable
func anyFailure<Failure: Error>(_ failure: Failure) -> any Error {
    failure
}

/// Turns an impossible upstream failure into any failure type: the failure conversion of
/// the operators over publishers that never fail (`setFailureType`).
@inlinable
func neverFails<Failure: Error>(_ never: Never) -> Failure {}
