// The two system calls behind the library's lock when it has to sleep. Swift cannot call the
// variadic `syscall(2)` itself, so they live here; the lock's uncontended paths are atomic
// operations in Swift and never reach this file.
#include "CombineFutex.h"

void combine_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#include <sched.h>

void combine_yield(void) { sched_yield(); }

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
// Elsewhere the lock does not sleep in the kernel: it yields and lets the caller retry.
void combine_futex_wait(uint32_t *address, uint32_t expected) {
    (void)address;
    (void)expected;
    sched_yield();
}

void combine_futex_wake_one(uint32_t *address) { (void)address; }

void combine_futex_wake_all(uint32_t *address) { (void)address; }
#endif
