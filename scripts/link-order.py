#!/usr/bin/env python3
"""The functions the tools' everyday command lines run, for lld's --symbol-ordering-file.

A static tool carries 5 MB of code of which one run executes a few hundred functions spread over
most of it; every 64 KiB window touched costs a page fault that maps 16 pages. Linked in the
order of cli/link-order.txt, the functions that run sit together (docs/performance.md, "One event
against a static C floor"). A function the list does not name keeps lld's default place, so a
stale list costs speed, never correctness; --check tells when it has gone stale.

  scripts/link-order.py --build build --write   rewrite cli/link-order.txt (needs valgrind)
  scripts/link-order.py --build build --check   exit 1 when the list names under --min-coverage
                                                of the functions the everyday lines run
"""
import argparse
import bisect
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDER_FILE = os.path.join(ROOT, "cli", "link-order.txt")
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
# order callgrind names them: lld --symbol-ordering-file for the static tools
# (cmake/PmucatLinkOrder.cmake). Regenerate after changing what those lines run;
# tests/repo's link_order_coverage says when it has gone stale.
"""


def tool_path(build, tool):
    return os.path.join(build, "cli", tool, tool)


def defined_symbols(binary):
    out = subprocess.run(["nm", "--defined-only", binary], check=True, capture_output=True,
                         text=True).stdout
    symbols = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
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
# before main); valgrind's CPU is not the real one, so each variant seen stands for its family.
ISA_SUFFIX = re.compile(r"_(sse2|ssse3|sse4_[12]|avx|avx2|evex|avx512\w*|erms|rtm)(_\w+)?$")


def variant_family(name, defined):
    match = ISA_SUFFIX.search(name)
    if not match:
        return []
    base = name[:match.start()]
    return sorted(symbol for symbol in defined
                  if symbol.startswith(base + "_") and ISA_SUFFIX.search(symbol)
                  and symbol[:ISA_SUFFIX.search(symbol).start()] == base)


# What runs before callgrind names anything, or under another name: the entry point, libc's
# start, the IRELATIVE resolvers (one per string function, every one run at start).
def start_up_functions(defined):
    named = ["_start", "__libc_start_main_impl", "__libc_start_call_main", "_init",
             "frame_dummy", "register_tm_clones", "deregister_tm_clones", "_dl_relocate_static_pie",
             "apply_irel", "__libc_setup_tls", "_dl_non_dynamic_init"]
    resolvers = sorted(symbol for symbol in defined if symbol.endswith("_ifunc"))
    return [name for name in named if name in defined] + resolvers


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


def everyday_functions(build):
    order = []
    seen = set()

    def add(names):
        for name in names:
            if name not in seen:
                seen.add(name)
                order.append(name)

    for tool, args in EVERYDAY_LINES:
        binary = tool_path(build, tool)
        defined = defined_symbols(binary)
        add(start_up_functions(defined))
        for name in executed_functions(binary, args):
            if name in defined:
                add([name] + variant_family(name, defined))
    return order


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

    functions = everyday_functions(options.build)
    if options.write:
        data = everyday_data(options.build)
        with open(ORDER_FILE + ".tmp", "w", encoding="utf-8") as out:
            out.write(HEADER)
            out.writelines(name + "\n" for name in functions)
            out.write("# Data objects the same lines touch, in the order they first do (lackey).\n")
            out.writelines(name + "\n" for name in data)
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
