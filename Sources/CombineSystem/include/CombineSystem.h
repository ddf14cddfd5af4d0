// SPDX-License-Identifier: Apache-2.0
#ifndef COMBINE_SYSTEM_H
#define COMBINE_SYSTEM_H

// The few calls into the operating system that the library needs and that Swift cannot make
// portably itself (variadic `syscall`, compiler intrinsics, per-platform headers). Every other
// module reaches the system only through these. Swift code does not import this module: it
// declares the functions by name in Sources/CombineSynchronization/System.swift (which says
// why), so a change of signature here is made there too.

#include <stdint.h>

/// Sleeps while the 32-bit word at `address` still holds `expected` (Linux `FUTEX_WAIT`,
/// Windows `WaitOnAddress`; elsewhere it yields once). Returns when woken, when the word no
/// longer holds `expected`, or spuriously: the caller re-checks the word in every case.
void combine_futex_wait(uint32_t *address, uint32_t expected);

/// Wakes at most one thread sleeping in `combine_futex_wait` on `address`.
void combine_futex_wake_one(uint32_t *address);

/// Wakes every thread sleeping in `combine_futex_wait` on `address`.
void combine_futex_wake_all(uint32_t *address);

/// Gives the processor to another runnable thread, if there is one.
void combine_yield(void);

/// Tells the processor that this thread is spinning on a shared word (`pause` on x86).
void combine_spin_pause(void);

/// Stops in an attached debugger; without one the process ends (`SIGTRAP` where signals
/// exist, a breakpoint exception on Windows, a trap on WebAssembly).
void combine_debugger_break(void);

#endif
