// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// Figures about the library's internals for its benchmarks: not API (import it with
/// `@_spi(Diagnostics) import Combine`), and it may change in any release.
@_spi(Diagnostics)
public enum SerialDeliveryDiagnostics {
    /// The most events any one subscriber's backlog has held at once (events waiting for the
    /// thread delivering to that subscriber), over the subscriptions released since
    /// ``reset()``, in the whole process.
    public static var peakBacklog: Int { DeliveryWaiters.peakBacklogSinceReset }

    /// Starts ``peakBacklog`` again from 0.
    public static func reset() { DeliveryWaiters.resetPeakBacklog() }
}
