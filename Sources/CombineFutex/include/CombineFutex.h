#ifndef COMBINE_FUTEX_H
#define COMBINE_FUTEX_H

#include <stdint.h>

/// Sleeps while the 32-bit word at `address` still holds `expected` (Linux `FUTEX_WAIT`, private
/// to the process). Returns when woken, when the word no longer holds `expected`, or on a
/// signal: the caller re-checks the word in every case.
void combine_futex_wait(uint32_t *address, uint32_t expected);

/// Wakes at most one thread sleeping in `combine_futex_wait` on `address` (`FUTEX_WAKE`).
void combine_futex_wake_one(uint32_t *address);

/// Wakes every thread sleeping in `combine_futex_wait` on `address` (`FUTEX_WAKE`).
void combine_futex_wake_all(uint32_t *address);

/// Gives the processor to another runnable thread, if there is one (`sched_yield`).
void combine_yield(void);

/// Tells the processor that this thread is spinning on a shared word (`pause` on x86).
void combine_spin_pause(void);

#endif
