// SPDX-License-Identifier: Apache-2.0
/// A value handed to a `@Sendable` closure or another task by the library itself, where the
/// library knows the value is used safely: its own locks or serial delivery order every use.
///
/// As in Apple's declarations, the library's public types (subjects, `AnyCancellable`,
/// `Future` and the others) are not `Sendable`; inside the package such a value crosses into
/// concurrent code in this box instead, so that no public conformance is added for the
/// package's own convenience.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }
}
