#!/usr/bin/env python3
"""The dynamic symbols libpmucat.so defines are the C API listed in exported_symbols.txt and
pmucat's own C++ API, nothing else (no fmt, nlohmann_json or standard library symbol).

Usage: check_exported_symbols.py LIBRARY EXPECTED_LIST [--update]
--update rewrites EXPECTED_LIST from the library (an ABI change made on purpose)."""

import subprocess
import sys

# What the toolchain itself may define in any shared library's dynamic symbol table.
TOOLCHAIN = {"_init", "_fini", "_edata", "_end", "__bss_start"}
# Demangled C++ names the version script lets out.
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
    library, expected_path = sys.argv[1], sys.argv[2]
    names = defined_symbols(library)
    c_names = [n for n in names if not n.startswith("_Z") and n not in TOOLCHAIN]
    if "--update" in sys.argv[3:]:
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
    for mangled, readable in zip(cxx, demangle(cxx)):
        if not readable.startswith(CXX_PREFIXES):
            problems.append(f"exports a symbol outside namespace pmucat: {readable} ({mangled})")
    if not any(d.startswith("pmucat::encode(") for d in demangle(cxx)):
        problems.append("pmucat::encode(...) of the C++ API is not exported")
    for p in problems[:50]:
        print(p)
    if problems:
        print(f"{len(problems)} problems; after a deliberate C ABI change run "
              f"{sys.argv[0]} {library} {expected_path} --update")
        return 1
    print(f"{len(c_names)} C symbols and {len(cxx)} pmucat C++ symbols, as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
