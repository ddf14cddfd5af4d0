# SPDX-License-Identifier: Apache-2.0
"""Counts, per operation of a probe scenario, the machine instructions and the atomic
read-modify-write (RMW) instructions executed, using valgrind's callgrind.

    python3 Benchmarks/atomics.py <binary> <scenario> <library> [--count N] [--json]

Method:
 * The binary is copied to a temporary directory and `objcopy --strip-debug` is run on the
   copy (callgrind cannot read the Swift debug info); the symbol table is kept.
 * `<copy> <scenario> <library> N` and `... 2N` run under
   `valgrind --tool=callgrind --dump-instr=yes`; everything per operation is the difference
   of the two runs divided by N, so start-up and tear-down cancel out.
 * The callgrind output gives the self cost (Ir = instructions executed) of every
   instruction address of every object (the program, libswiftCore, libc, ld.so, ...).
 * Each object that ran is disassembled once with objdump. An instruction is an atomic RMW
   if it has a `lock` prefix (lock cmpxchg/xadd/add/inc/dec/or/bts/...) or is an `xchg`
   with a memory operand (implicitly locked). Atomic RMW executed = sum of the Ir of the
   addresses holding such instructions.
 * Callgrind writes addresses relative to the object's load bias. The bias is checked by
   comparing the addresses callgrind gives for named functions (call targets, lowest address
   of each function) with the object's symbol table (`nm`) and taking the most common
   difference (expected: 0).
 * The result is for the process as it ran: while a process has one thread, glibc skips the
   atomics of its mutexes (pthread_mutex_lock/unlock) and of malloc. `Benchmarks/Tools/Probe`
   starts one other thread first, as every app has, so that they count; the text output
   notes the mutex calls.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types

NAME_KIND = {"ob": "ob", "cob": "ob", "fn": "fn", "cfn": "fn", "jfn": "fn"}  # others: files


def plain(fn):
    """Drops callgrind's recursion/context suffix ("f'2")."""
    return re.sub(r"'.*$", "", fn)


def position(spec, last):
    """An instruction address: absolute, or relative ("+N", "-N", "*") to the last one."""
    return last if spec == "*" else last + int(spec) if spec[0] in "+-" else int(spec, 0)


def parse_callgrind(path):
    """Reads a callgrind file written with --dump-instr=yes, undoing name compression
    ("(id) name", later "(id)") and position compression ("+N", "-N", "*" relative to the
    last cost line). The line after `calls=` holds the inclusive cost of the call: it is
    neither self cost nor (like the target on the calls= line) an update of the position."""
    prof = types.SimpleNamespace(  # what matters here of one callgrind output file
        self_cost=collections.Counter(),  # (object, function, address) -> Ir
        calls=collections.Counter(),  # (object, function) -> times called
        entries=[],  # (object, function, address) of function entry points
        summary=None)
    names = {"ob": {}, "fn": {}, "fl": {}}  # name compression: id -> name
    npos, last, pending = 1, 0, False
    cur = {"ob": "?", "fn": "?", "cob": None, "cfn": None}  # the names in effect
    for line in open(path, encoding="utf-8", errors="replace"):
        head = line[:1]
        if head.isdigit() or head in "+-*":
            fields = line.split()
            addr = position(fields[0], last)
            if pending:  # source position of a calls=/jump= line: not a self cost
                pending = False
                continue
            last = addr
            cost = int(fields[npos]) if len(fields) > npos else 0
            prof.self_cost[(cur["ob"], cur["fn"], addr)] += cost
        elif line.startswith("calls="):
            count, target = line[6:].split()[:2]
            callee = (cur["cob"] or cur["ob"], cur["cfn"])
            prof.calls[callee] += int(count)
            prof.entries.append(callee + (position(target, last),))
            cur["cob"], pending = None, True  # cob= applies to one call only
        elif line.startswith(("jump=", "jcnd=")):  # only with --collect-jumps=yes
            pending = True
        elif m := re.match(r"(\w+)=\s*(?:\((\d+)\))?\s*(.*?)\s*$", line):
            key, ident, value = m.groups()
            table = names[NAME_KIND.get(key, "fl")]
            if ident is not None:
                value = table.setdefault(ident, value) if value else table[ident]
            if key in cur:
                cur[key] = plain(value) if key in ("fn", "cfn") else value
        elif line.startswith("positions:"):
            npos = len(line.split()) - 1
        elif line.startswith(("summary:", "totals:")):
            prof.summary = int(line.split()[1])
        elif line.startswith("part:"):
            last = 0
    # The lowest executed address of each function is (nearly always) its entry point.
    lowest = {}
    for (o, f, a) in prof.self_cost:
        lowest[(o, f)] = min(a, lowest.get((o, f), a))
    prof.entries += [k + (a,) for k, a in lowest.items()]
    return prof


def symbols(path):
    """Symbol name -> address, from the static and the dynamic symbol table."""
    table = {}
    for extra in ([], ["-D"]):
        out = subprocess.run(["nm", "--defined-only", *extra, path],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3:
                table.setdefault(parts[2].split("@")[0], int(parts[0], 16))
    return table


def load_bias(path, entries):
    """Most common difference symbol-table address minus callgrind address."""
    table = symbols(path)
    votes = collections.Counter(table[f] - a for (o, f, a) in entries if o == path and f in table)
    return votes.most_common(1)[0][0] if votes else 0


def disassemble(path, wanted):
    """Returns (atomic addresses, addresses that start an instruction), both within wanted."""
    proc = subprocess.Popen(["objdump", "-d", "--no-show-raw-insn", path],
                            stdout=subprocess.PIPE, text=True, errors="replace")
    atomic, starts = set(), set()
    for line in proc.stdout:
        m = re.match(r"\s*([0-9a-f]+):\t(.*)", line)
        if not m or int(m.group(1), 16) not in wanted:
            continue
        addr = int(m.group(1), 16)
        starts.add(addr)
        text = re.sub(r"#.*|<[^>]*>", "", m.group(2))  # drop comments and symbol names
        words = text.split()
        if "lock" in words or (any(w.startswith("xchg") for w in words) and "(" in text):
            atomic.add(addr)
    proc.wait()
    return atomic, starts


def run_callgrind(binary, args, out):
    cmd = ["valgrind", "--tool=callgrind", "--dump-instr=yes", "--demangle=no",
           f"--callgrind-out-file={out}", binary, *args]
    result = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"atomics.py: {' '.join(cmd)} failed:\n{result.stderr[-3000:]}")
    return parse_callgrind(out)


def demangle(names):
    """Readable names via `swift demangle --simplified` and, for C++ names of the Swift
    runtime, `c++filt -p` without template arguments, if these tools are available."""
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    text = "\n".join(names) + "\n"
    for cmd in ([swift, "demangle", "--simplified"], ["c++filt", "-p"]):
        try:
            out = subprocess.run(cmd, input=text, capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        if len(out.splitlines()) == len(names):
            text = out
    readable = {}
    for name, nice in zip(names, text.splitlines()):
        while name.startswith("_Z") and re.search(r"<[^<>]*>", nice):
            nice = re.sub(r"<[^<>]*>", "", nice)
        readable[name] = nice
    return readable


def measure(binary, scenario, library, count):
    with tempfile.TemporaryDirectory(prefix="atomics-") as tmp:
        copy = os.path.join(tmp, os.path.basename(binary))
        shutil.copy2(binary, copy)
        subprocess.run(["objcopy", "--strip-debug", copy], check=True)
        runs = [run_callgrind(copy, [scenario, library, str(n)], os.path.join(tmp, f"cg.{n}"))
                for n in (count, 2 * count)]
        # Every address executed in either run, per object (callgrind's coordinates).
        executed = collections.defaultdict(set)
        for prof in runs:
            for (o, f, a) in prof.self_cost:
                executed[o].add(a)
        atomic_at = {}  # object -> atomic addresses in callgrind's coordinates
        for obj, addrs in executed.items():
            atomic_at[obj] = set()
            if not os.path.isfile(obj):  # e.g. "???": code outside any file (vdso, ...)
                ir = [sum(c for (o, f, a), c in p.self_cost.items() if o == obj) for p in runs]
                if ir[0] != ir[1]:
                    print(f"atomics.py: warning: {(ir[1] - ir[0]) / count:.2f} instructions per "
                          f"op in {obj!r}, which cannot be disassembled", file=sys.stderr)
                continue
            bias = load_bias(obj, [e for p in runs for e in p.entries])
            atomic, starts = disassemble(obj, {a + bias for a in addrs})
            missing = len(addrs) - len(starts)
            if bias or missing:
                print(f"atomics.py: note: {os.path.basename(obj)}: load bias {bias:#x}, "
                      f"{missing} executed addresses not at an instruction start", file=sys.stderr)
            atomic_at[obj] = {a - bias for a in atomic}

        def totals(prof):
            ir, atomics, by_fn = 0, 0, collections.Counter()
            for (o, f, a), cost in prof.self_cost.items():
                ir += cost
                if a in atomic_at[o]:
                    atomics += cost
                    by_fn[(o, f)] += cost
            if prof.summary is not None and prof.summary != ir:
                print(f"atomics.py: warning: parsed Ir {ir} != callgrind summary {prof.summary}",
                      file=sys.stderr)
            return ir, atomics, by_fn

        (ir1, at1, fn1), (ir2, at2, fn2) = totals(runs[0]), totals(runs[1])
    per_op = lambda c1, c2, k: (c2[k] - c1[k]) / count
    keys = [k for k in fn2 if round(per_op(fn1, fn2, k), 2)]
    readable = demangle([f for (o, f) in keys])
    # Functions by readable name (several specializations can demangle to the same name):
    # name -> [atomic RMW per op, calls per op, objects].
    by_name = {}
    for o, f in keys:
        entry = by_name.setdefault(readable[f], [0.0, 0.0, set()])
        entry[0] += per_op(fn1, fn2, (o, f))
        entry[1] += per_op(runs[0].calls, runs[1].calls, (o, f))
        entry[2].add(os.path.basename(o))
    top = sorted(by_name.items(), key=lambda item: -item[1][0])[:10]
    return {
        "scenario": scenario,
        "library": library,
        "instructions_per_op": round((ir2 - ir1) / count, 2),
        "atomics_per_op": round((at2 - at1) / count, 2),
        "by_function": {name: round(value, 2) for name, (value, _, _) in top},
        # Not in the JSON: calls per op and objects of the listed functions, and calls per op of
        # glibc's mutex lock/unlock (which skips its atomics while the process is single-threaded).
        "_details": [(name, calls, ", ".join(sorted(objs))) for name, (_, calls, objs) in top],
        "_mutex": sum(per_op(runs[0].calls, runs[1].calls, k) for k in runs[1].calls
                      if re.match(r"_*pthread_mutex_(un)?lock(@|$)", k[1])),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("scenario")
    parser.add_argument("library", help="ours or opencombine")
    parser.add_argument("--count", type=int, default=100000, help="operations N (runs N and 2N)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not os.path.isfile(args.binary):
        parser.error(f"no such file: {args.binary}")
    result = measure(args.binary, args.scenario, args.library, args.count)
    details, mutex = result.pop("_details"), result.pop("_mutex")
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.scenario} / {args.library}  (difference of runs with {args.count} "
          f"and {2 * args.count} operations, per operation)")
    print(f"  instructions per op: {result['instructions_per_op']:.2f}")
    print(f"  atomic RMW per op:   {result['atomics_per_op']:.2f}")
    print("  atomic RMW per op by function (calls per op, object):")
    for (name, calls, objs), value in zip(details, result["by_function"].values()):
        print(f"  {value:8.2f}  {name}  ({calls:.2f} calls, {objs})")
    if mutex:
        print(f"  note: {mutex:.2f} glibc pthread_mutex_lock/unlock calls per op (no atomic RMW in "
              "them if the process never had a second thread: __libc_single_threaded)")


if __name__ == "__main__":
    main()
