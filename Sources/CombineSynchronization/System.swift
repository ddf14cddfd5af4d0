// SPDX-License-Identifier: Apache-2.0
// The C target CombineSystem's functions (Sources/CombineSystem/include/CombineSystem.h),
// declared here by their symbol names rather than imported as a C module.
//
// A module built without library evolution records every module it imports, an `internal
// import` too, and whoever loads it must then find that module. SwiftPM gives a C target's
// module map only to the targets that depend on it, so a target of another package that reaches
// our `Combine` through `#if canImport(Combine)` (GRDB's, combine-schedulers') could not load it:
// "missing required module 'CombineSystem'". Declared here, these are plain symbols that the
// linker takes from the C target, which `CombineSynchronization` and `Combine` still depend on;
// no module of ours names a C module. `scripts/check-neighbours.sh` checks it.
//
// Each takes a pointer and 32-bit integers and returns nothing, which Swift passes as C does on
// the platforms the package builds for. Keep the two lists in step: a name missing from the C
// file fails at link time.

/// Sleeps while the word at `address` holds `expected`; returns when woken, when the word
/// changed, or spuriously (callers look at the word again in every case).
@_silgen_name("combine_futex_wait")
package func futexWait(_ address: UnsafeMutablePointer<UInt32>, _ expected: UInt32)

/// Wakes at most one thread sleeping on `address`.
@_silgen_name("combine_futex_wake_one")
package func futexWakeOne(_ address: UnsafeMutablePointer<UInt32>)

/// Wakes every thread sleeping on `address`.
@_silgen_name("combine_futex_wake_all")
package func futexWakeAll(_ address: UnsafeMutablePointer<UInt32>)

/// Gives the processor to another runnable thread, if there is one.
@_silgen_name("combine_yield")
package func yieldProcessor()

/// Tells the processor this thread is spinning on a shared word.
@_silgen_name("combine_spin_pause")
package func spinPause()

/// Stops in an attached debugger; without one, the process ends.
@_silgen_name("combine_debugger_break")
package func debuggerBreak()
