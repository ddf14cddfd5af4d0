// SPDX-License-Identifier: Apache-2.0
// The library's calls into the operating system (see CombineSystem.h). The lock's uncontended
// paths are atomic operations in Swift and never reach this file.
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // syscall() in <unistd.h>, also under a strict -std=c11
#endif
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
#if __has_include(<linux/futex.h>)
#include <linux/futex.h>
#else
// A C library without the kernel's headers (musl, as the static Linux SDK ships it): the
// futex operations the kernel defines, as its ABI fixes them.
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129
#endif
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
#elif defined(__APPLE__)
// Apple's platforms: the system's own wait-on-address (macOS 14.4, iOS 17.4 and their peers;
// the package's platforms start above those). Not built here: no Apple machine.
#include <os/os_sync_wait_on_address.h>

void combine_futex_wait(uint32_t *address, uint32_t expected) {
    os_sync_wait_on_address(address, expected, sizeof(uint32_t), OS_SYNC_WAIT_ON_ADDRESS_NONE);
}

void combine_futex_wake_one(uint32_t *address) {
    os_sync_wake_by_address_any(address, sizeof(uint32_t), OS_SYNC_WAKE_BY_ADDRESS_NONE);
}

void combine_futex_wake_all(uint32_t *address) {
    os_sync_wake_by_address_all(address, sizeof(uint32_t), OS_SYNC_WAKE_BY_ADDRESS_NONE);
}
#elif defined(__wasm_atomics__)
// WebAssembly with threads: the memory's own wait and notify (a timeout of -1 waits for ever).
void combine_futex_wait(uint32_t *address, uint32_t expected) {
    __builtin_wasm_memory_atomic_wait32((int *)address, (int)expected, -1);
}

void combine_futex_wake_one(uint32_t *address) { __builtin_wasm_memory_atomic_notify((int *)address, 1); }

void combine_futex_wake_all(uint32_t *address) { __builtin_wasm_memory_atomic_notify((int *)address, UINT32_MAX); }
#else
// Elsewhere (WebAssembly without threads, where no other thread can hold the lock) waiting
// yields once and the caller retries.
void combine_futex_wait(uint32_t *address, uint32_t expected) {
    (void)address;
    (void)expected;
    sched_yield();
}

void combine_futex_wake_one(uint32_t *address) { (void)address; }

void combine_futex_wake_all(uint32_t *address) { (void)address; }
#endif
#endif
