// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The address of a local in a frame of its own: the stack grows down, so the difference
/// between two of these, taken at two depths, is the stack used in between.
@inline(never)
func stackAddress() -> UInt {
    var marker = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

/// The stack a thread gets when nobody asks for a size: the main thread's 8 MiB on Linux
/// (`ulimit -s`), also glibc's default for new threads.
let defaultStackSize = 8 << 20

/// Runs `body` on a new thread with a stack of `stackSize` bytes and returns its result,
/// blocking the caller until the thread is done.
func onThread<Result: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> Result) -> Result {
    let result = LockedValue<Result?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.withLock { $0 = body() }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return result.current!
}

/// Whether this test process runs under ThreadSanitizer or AddressSanitizer (their runtimes
/// export `__tsan_acquire` / `__asan_init`). Both multiply stack frames and memory: the
/// stack-depth tests, which measure exactly those, run only without them (ThreadSanitizer's
/// own CHECK failed in its allocator on the five-million-value run; AddressSanitizer's larger
/// frames overflow the stacks these tests size for a normal build).
let runningUnderSanitizer = ["__tsan_acquire", "__asan_init"].contains { (symbol: String) in
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) != nil
}

/// How many values a long synchronous run (a flat-stack test sending millions of values one at a
/// time) sends: `count` normally, a tenth of it under a sanitizer. Such a test holds one of the
/// test runner's two threads for its whole run; at full length under ThreadSanitizer (about two
/// minutes each) two of them held both threads for minutes, while the asynchronous tests waiting
/// behind them ran out of time. A tenth is still far deeper than any stack could nest.
func valueCountForLongRuns(_ count: Int) -> Int {
    runningUnderSanitizer ? count / 10 : count
}
