// SPDX-License-Identifier: Apache-2.0
// The library's calls into the operating system (see CombineSystem.h). The lock's uncontended
// paths are atomic operations in Swift and never reach this file.
#include "CombineSystem.h"

void combine_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

void combine_yield(void) { SwitchToThread(); }

void combine_futex_wait(uint32_t *address, uint32_t expected) {
    WaitOnAddress(address, &expected, sizeof(expected), INFINITE);
}

void combine_futex_wake_one(uint32_t *address) { WakeByAddressSingle(address); }

void combine_futex_wake_all(uint32_t *address) { WakeByAddressAll(address); }

void combine_debugger_break(void) { __debugbreak(); }

#else
#include <sched.h>

void combine_yield(void) { sched_yield(); }

#if defined(__wasi__)
void combine_debugger_break(void) { __builtin_trap(); }
#else
#include <signal.h>

void combine_debugger_break(void) { raise(SIGTRAP); }
#endif

#if defined(__linux__)
#include <linux/futex.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

void combine_futex_wait(uint32_t *address, uint32_t expected) {
    syscall(SYS_futex, address, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void combine_futex_wake_one(uint32_t *address) {
    syscall(SYS_futex, address, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void combine_futex_wake_all(uint32_t *address) {
    syscall(SYS_futex, address, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}
#else
// Elsewhere (Darwin, WASI) the lock does not sleep in the kernel: waiting yields once and the
// caller retries.
void combine_futex_wait(uint32_t *address, uint32_t expected) {
    (void)address;
    (void)expected;
    sched_yield();
}

void combine_futex_wake_one(uint32_t *address) { (void)address; }

void combine_futex_wake_all(uint32_t *address) { (void)address; }
#endif
#endif
