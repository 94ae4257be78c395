#!/usr/bin/env python3
"""The dynamic symbols libpmucat.so defines are the C API listed in exported_symbols.txt and
pmucat's own C++ API, nothing else (no fmt, nlohmann_json or standard library symbol), and every
C++ one lies in the ABI namespace pmucat::<ABI> (include/pmucat/version.h), none in a bare
namespace pmucat.

Usage: check_exported_symbols.py LIBRARY EXPECTED_LIST ABI [--update]
ABI is the inline namespace the build expects (v<major>_<minor> of the SOVERSION).
--update rewrites EXPECTED_LIST from the library (an ABI change made on purpose).
Exits 77 (skipped) where binutils' nm or c++filt is missing."""

import shutil
import subprocess
import sys

# What the toolchain itself may define in any shared library's dynamic symbol table.
TOOLCHAIN = {"_init", "_fini", "_edata", "_end", "__bss_start"}
# Demangled C++ names the version script lets out, each followed by the ABI namespace.
CXX_PREFIXES = ("pmucat::", "vtable for pmucat::", "typeinfo for pmucat::",
                "typeinfo name for pmucat::")


def defined_symbols(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    names = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3:
            names.append(fields[2].split("@")[0])
    return sorted(set(names))


def demangle(names):
    if not names:
        return []
    out = subprocess.run(["c++filt"], input="\n".join(names), check=True, capture_output=True,
                         text=True).stdout
    return out.splitlines()


def main():
    library, expected_path, abi = sys.argv[1], sys.argv[2], sys.argv[3]
    if not shutil.which("nm") or not shutil.which("c++filt"):
        print("skipped: nm or c++filt (binutils) is not installed")
        return 77
    prefixes = tuple(prefix + abi + "::" for prefix in CXX_PREFIXES)
    names = defined_symbols(library)
    c_names = [n for n in names if not n.startswith("_Z") and n not in TOOLCHAIN]
    if "--update" in sys.argv[4:]:
        with open(expected_path, "w") as f:
            f.write("".join(n + "\n" for n in c_names))
        return 0
    with open(expected_path) as f:
        expected = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    problems = []
    for n in sorted(set(c_names) - set(expected)):
        problems.append(f"exported but not in {expected_path}: {n}")
    for n in sorted(set(expected) - set(c_names)):
        problems.append(f"listed in {expected_path} but not exported: {n}")
    cxx = [n for n in names if n.startswith("_Z")]
    readable_names = demangle(cxx)
    for mangled, readable in zip(cxx, readable_names):
        if not readable.startswith(prefixes):
            problems.append(f"exports a symbol outside namespace pmucat::{abi}: {readable} "
                            f"({mangled})")
    if not any(d.startswith(f"pmucat::{abi}::encode(") for d in readable_names):
        problems.append(f"pmucat::{abi}::encode(...) of the C++ API is not exported")
    for p in problems[:50]:
        print(p)
    if problems:
        print(f"{len(problems)} problems; after a deliberate C ABI change run "
              f"{sys.argv[0]} {library} {expected_path} {abi} --update")
        return 1
    print(f"{len(c_names)} C symbols and {len(cxx)} pmucat::{abi} C++ symbols, as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
