#!/usr/bin/env python3
"""The functions the tools' everyday command lines run, for lld's --symbol-ordering-file.

A static tool carries 5 MB of code of which one run executes a few hundred functions spread over
most of it; every 64 KiB window touched costs a page fault that maps 16 pages. Linked in the
order of cli/link-order.txt, the functions that run sit together, in the order a native run first
enters them (docs/performance.md, "One event against a static C floor", "Third pass"). Two
markers in the list tell the start-up prefault where the hot code and data end. A function the
list does not name keeps lld's default place, so a stale list costs speed, never correctness;
--check tells when it has gone stale.

  scripts/link-order.py --build build --write   rewrite cli/link-order.txt (needs valgrind, gdb)
  scripts/link-order.py --build build --check   exit 1 when the list names under --min-coverage
                                                of the functions the everyday lines run
"""
import argparse
import bisect
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDER_FILE = os.path.join(ROOT, "cli", "link-order.txt")
# Defined by cli/common/prefault_entry.cpp: listed after the first line's functions and after
# every data object, their addresses are where the hot code and data end (the start-up prefault
# maps up to them).
TEXT_END_MARKER = "pmucat_link_order_text_end"
DATA_END_MARKER = "pmucat_link_order_data_end"
SPR = os.path.join(ROOT, "fixtures", "sysfs", "intel-spr")

# (tool, arguments): what people run most, the one-event spec first (the measured case).
EVERYDAY_LINES = [
    ("pmuencode", ["--sysfs", SPR, "cpu/event=0x3c,umask=0x1,inv,cmask=3/"]),
    ("pmuencode", ["--sysfs", SPR, "--perf", "mem-loads"]),
    ("pmuencode", ["--sysfs", SPR, "--cpuid", "GenuineIntel-6-8F-8", "--json", "inst_retired.any"]),
    ("pmuls", ["--sysfs", SPR, "--pmu", "cpu"]),
    ("pmuls", ["--sysfs", SPR]),
]

HEADER = """\
# The functions the tools' everyday command lines run (scripts/link-order.py --write), in the
# order a native run first enters them (gdb), then the data objects they touch: lld
# --symbol-ordering-file for the static tools (cmake/PmucatLinkOrder.cmake). Regenerate after
# changing what those lines run; tests/repo's link_order_coverage says when it has gone stale.
# pmucat_link_order_text_end and pmucat_link_order_data_end mark where the hot code and data end
# (cli/common/prefault_entry.cpp).
"""


def tool_path(build, tool):
    return os.path.join(build, "cli", tool, tool)


def defined_symbols(binary):
    out = subprocess.run(["nm", "--defined-only", binary], check=True, capture_output=True,
                         text=True).stdout
    symbols = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwWiI":
            symbols.add(parts[2])
    return symbols


def data_symbols(binary):
    """(address, size, name) of the binary's data objects, sorted by address: global, local and
    GNU-unique ones ('u': template statics such as the locale facets' ids, written at start)."""
    out = subprocess.run(["nm", "-S", "--defined-only", binary], check=True, capture_output=True,
                         text=True).stdout
    symbols = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "dDbBrRuvV" and int(parts[1], 16) > 0:
            symbols.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    symbols.sort()
    return symbols


def touched_data(binary, args, scratch):
    """Data objects the run reads or writes, in the order it first touches them (lackey)."""
    symbols = data_symbols(binary)
    starts = [address for address, _, _ in symbols]
    log = os.path.join(scratch, "lackey.log")
    subprocess.run(["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-file={log}", binary,
                    *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, XDG_CACHE_HOME=scratch))
    names = []
    seen = set()
    with open(log, encoding="ascii", errors="replace") as text:
        for line in text:
            if line[:2] not in (" L", " S", " M"):
                continue
            address = int(line[3:line.index(",")], 16)
            index = bisect.bisect_right(starts, address) - 1
            if index < 0:
                continue
            start, size, name = symbols[index]
            if address < start + size and name not in seen:
                seen.add(name)
                names.append(name)
    return names


# glibc picks a string function's variant by the CPU at start (IRELATIVE resolvers, all run
# before main). The native run names the variants this CPU uses; the rest of each family is
# listed after every function the lines run, so another CPU's variants sit together too.
ISA_SUFFIX = re.compile(r"_(sse2|ssse3|sse4_[12]|avx|avx2|evex|avx512\w*|erms|rtm)(_\w+)?$")


def variant_family(name, defined):
    match = ISA_SUFFIX.search(name)
    if not match:
        return []
    base = name[:match.start()]
    return sorted(symbol for symbol in defined
                  if symbol.startswith(base + "_") and ISA_SUFFIX.search(symbol)
                  and symbol[:ISA_SUFFIX.search(symbol).start()] == base)


# What may run before a tracer names anything, or under another name: the entry point, libc's
# start, the IRELATIVE resolvers (one per string function, every one run at start).
def start_up_functions(defined):
    named = ["_start", "__libc_start_main_impl", "__libc_start_call_main", "_init",
             "frame_dummy", "register_tm_clones", "deregister_tm_clones", "_dl_relocate_static_pie",
             "apply_irel", "__libc_setup_tls", "_dl_non_dynamic_init"]
    resolvers = sorted(symbol for symbol in defined if symbol.endswith("_ifunc"))
    return [name for name in named if name in defined] + resolvers


# A breakpoint on every function, each deleted when hit: the native run's functions in the
# order they first run. Native, because valgrind's run differs at start (no vDSO, so libc skips
# setting it up; another CPU, so other string-function variants).
GDB_TRACE = """
import gdb, os, subprocess
symbols = {}
for line in subprocess.run(["nm", "--defined-only", os.environ["TRACE_BINARY"]],
                           capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in "tTwWiI":
        symbols.setdefault(int(parts[0], 16), parts[2])
for setting in ("pagination off", "confirm off", "breakpoint always-inserted on"):
    gdb.execute("set " + setting)
names = {}
for address, name in symbols.items():
    point = gdb.Breakpoint("*0x%x" % address, internal=True, temporary=True)
    point.silent = True
    names[point.number] = name
order = []
def stopped(event):
    for point in getattr(event, "breakpoints", []):
        order.append(names.get(point.number))
gdb.events.stop.connect(stopped)
gdb.execute("run " + os.environ["TRACE_ARGS"] + " >/dev/null 2>&1", to_string=True)
while gdb.selected_inferior().pid:
    gdb.execute("continue", to_string=True)
with open(os.environ["TRACE_OUT"], "w") as out:
    out.writelines(name + "\\n" for name in order if name)
"""


def natively_run_functions(binary, args):
    """Function symbols the run executes on this machine, in the order they first run (gdb)."""
    with tempfile.TemporaryDirectory() as scratch:
        script = os.path.join(scratch, "trace.py")
        out_file = os.path.join(scratch, "order.txt")
        with open(script, "w", encoding="utf-8") as text:
            text.write(GDB_TRACE)
        env = dict(os.environ, XDG_CACHE_HOME=scratch, TRACE_BINARY=binary, TRACE_OUT=out_file,
                   TRACE_ARGS=" ".join(shlex.quote(arg) for arg in args))
        subprocess.run(["gdb", "-q", "-batch", "-nx", "-x", script, binary], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        with open(out_file, encoding="utf-8") as text:
            return [line.strip() for line in text if line.strip()]


def executed_functions(binary, args):
    """Function symbols callgrind saw run, in the order its output first names them."""
    with tempfile.TemporaryDirectory() as scratch:
        out_file = os.path.join(scratch, "callgrind.out")
        env = dict(os.environ, XDG_CACHE_HOME=scratch)
        subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                        f"--callgrind-out-file={out_file}", binary, *args],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        names = []
        seen = set()
        with open(out_file, encoding="utf-8", errors="replace") as text:
            for line in text:
                match = re.match(r"c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
                if match and match.group(1) not in seen:
                    seen.add(match.group(1))
                    names.append(match.group(1))
        return names


def everyday_functions(build, native):
    """The functions the everyday lines run: with `native`, in the order they first run on this
    machine, then what only valgrind's run named, then the other variants of each string
    function; without, in callgrind's order with each variant's family beside it (--check).
    The text marker follows the first line's functions: the one-event line's code is what the
    start-up prefault maps."""
    order = []
    seen = set()
    tail = []

    def add(names, into):
        for name in names:
            if name not in seen:
                seen.add(name)
                into.append(name)

    for tool, args in EVERYDAY_LINES:
        binary = tool_path(build, tool)
        defined = defined_symbols(binary)
        if native:
            add([name for name in natively_run_functions(binary, args) if name in defined],
                order)
        for name in executed_functions(binary, args):
            if name in defined:
                add([name], order)
                add(variant_family(name, defined), tail if native else order)
        add(start_up_functions(defined), tail if native else order)
        if native and TEXT_END_MARKER not in seen:
            add([TEXT_END_MARKER], order)
    return order + tail


def everyday_data(build):
    """The data objects the everyday lines touch: their pages are written (copy on write) or
    read once each, so together they fault a few pages instead of one per object."""
    order = []
    seen = set()
    with tempfile.TemporaryDirectory() as scratch:
        for tool, args in EVERYDAY_LINES:
            for name in touched_data(tool_path(build, tool), args, scratch):
                if name not in seen:
                    seen.add(name)
                    order.append(name)
    return order


def read_order_file():
    with open(ORDER_FILE, encoding="utf-8") as text:
        return [line.strip() for line in text if line.strip() and not line.startswith("#")]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="build directory holding cli/<tool>")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    parser.add_argument("--min-coverage", type=float, default=0.9)
    options = parser.parse_args()

    functions = everyday_functions(options.build, native=options.write)
    if options.write:
        data = everyday_data(options.build)
        with open(ORDER_FILE + ".tmp", "w", encoding="utf-8") as out:
            out.write(HEADER)
            out.writelines(name + "\n" for name in functions)
            out.write("# Data objects the same lines touch, in the order they first do (lackey).\n")
            out.writelines(name + "\n" for name in data if name != DATA_END_MARKER)
            out.write(DATA_END_MARKER + "\n")
        os.replace(ORDER_FILE + ".tmp", ORDER_FILE)
        print(f"link-order: {len(functions)} functions and {len(data)} data objects written to "
              f"{ORDER_FILE}")
        return 0
    listed = set(read_order_file())
    missing = [name for name in functions if name not in listed]
    coverage = 1 - len(missing) / len(functions) if functions else 1
    print(f"link-order: cli/link-order.txt names {len(functions) - len(missing)} of the "
          f"{len(functions)} functions the everyday lines run ({coverage:.0%})")
    if coverage < options.min_coverage:
        for name in missing[:20]:
            print(f"  not listed: {name}")
        print(f"link-order: under {options.min_coverage:.0%}: run scripts/link-order.py "
              f"--build {options.build} --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
