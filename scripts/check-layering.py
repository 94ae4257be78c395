#!/usr/bin/env python3
"""Checks that each library module includes only headers of the modules it depends on.

The module graph comes from the declarations in src/*/CMakeLists.txt:

    pmucat_module(<name> HEADERS <public headers, relative to include/pmucat>
                         SOURCES <files> MODULES <modules it uses> LIBS <libraries>)

A file belongs to a module when the module lists it (SOURCES for files under src/, HEADERS for
public headers); a file of src/<dir>/ that no module lists belongs to the module named <dir>, or
to the first module declared in src/<dir>/. Every #include of every module file is resolved the
way the build resolves it (the including file's folder, src/, include/), and it is a violation
when it lands in
  - a file of another module that the including module does not use, directly or transitively;
  - a public header that no module owns (but include/pmucat/version.h, the version and the ABI
    namespace macros, which belongs to no module and which every module may include);
  - cli/ or tests/ (the library never depends on the tools or on the tests).
Includes that resolve nowhere in the tree (system and generated headers) are not checked.
Where the tree has docs/architecture.md, its module table (the rows after the header
"| module | folder | job | uses | public headers |") must match the declarations: one row per
module, its "uses" cell the modules of MODULES ("—" for none), its headers cell the HEADERS.
A test (tests/) includes public headers, tests/ helpers and the support library; one that
includes a src/ or cli/ header must say at its top that it is an internal unit test on purpose:
its first line starts with "// Internal unit test of ".

Usage: check-layering.py [--root DIR]    prints the module graph and the violations; exit 1
                                         when there is one, 2 when the declarations are broken
       check-layering.py --self-test DIR runs the checker on DIR/good (no violation expected)
                                         and DIR/bad (exactly DIR/bad/expected.txt expected)
"""

import argparse
import os
import re
import sys
from pathlib import Path

KEYWORDS = ("HEADERS", "SOURCES", "MODULES", "LIBS")
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".c", ".inc", ".def")
INTERNAL_TEST_MARK = "// Internal unit test of "
BASE_HEADER = Path("include/pmucat/version.h")  # no module's; every module's headers open with it
FIXTURES = Path("tests/repo/layering")  # fake layouts of --self-test, not tests of this tree
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


class DeclarationError(Exception):
    pass


class Module:
    def __init__(self, name, folder, cmake_file):
        self.name = name
        self.folder = folder  # src/<dir>, relative to the root
        self.cmake_file = cmake_file
        self.headers = []  # as written, relative to include/pmucat
        self.sources = []  # as written, relative to the folder
        self.deps = []


def strip_cmake_comments(text):
    lines = []
    for line in text.splitlines():
        out, quoted = [], False
        for ch in line:
            if ch == '"':
                quoted = not quoted
            elif ch == "#" and not quoted:
                break
            out.append(ch)
        lines.append("".join(out))
    return "\n".join(lines)


def parse_declarations(cmake_file, folder):
    """The pmucat_module() calls of one CMakeLists.txt."""
    text = strip_cmake_comments(cmake_file.read_text(encoding="utf-8"))
    modules = []
    for match in re.finditer(r"\bpmucat_module\s*\(", text):
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        if depth:
            raise DeclarationError(f"{cmake_file}: unclosed pmucat_module(")
        words = re.findall(r'"[^"]*"|\S+', text[match.end():end - 1])
        words = [w.strip('"') for w in words]
        if not words or words[0] in KEYWORDS:
            raise DeclarationError(f"{cmake_file}: pmucat_module() without a name")
        module = Module(words[0], folder, cmake_file)
        lists = {"HEADERS": module.headers, "SOURCES": module.sources, "MODULES": module.deps,
                 "LIBS": []}
        current = None
        for word in words[1:]:
            if word in lists:
                current = lists[word]
            elif current is None:
                raise DeclarationError(f"{cmake_file}: {module.name}: '{word}' before a keyword")
            else:
                current.append(word)
        modules.append(module)
    return modules


class Layout:
    """The modules of a source tree and which module each file belongs to."""

    def __init__(self, root):
        self.root = root
        self.modules = {}
        self.by_folder = {}
        for cmake_file in sorted(root.glob("src/*/CMakeLists.txt")):
            folder = cmake_file.parent.relative_to(root)
            for module in parse_declarations(cmake_file, folder):
                if module.name in self.modules:
                    raise DeclarationError(f"{cmake_file}: module {module.name} declared twice")
                self.modules[module.name] = module
                self.by_folder.setdefault(folder, []).append(module)
        for module in self.modules.values():
            for dep in module.deps:
                if dep not in self.modules:
                    raise DeclarationError(
                        f"{module.cmake_file}: {module.name} uses unknown module {dep}")
        self.public_owner = {}  # path relative to root -> module name (None: the umbrella)
        for module in self.modules.values():
            for header in module.headers:
                self.public_owner[Path("include/pmucat") / header] = module.name
        # The umbrella header belongs to no module (it includes a whole component).
        self.public_owner[Path("include/pmucat/pmucat.h")] = None
        self.listed_source = {}
        for module in self.modules.values():
            for source in module.sources:
                self.listed_source[module.folder / source] = module.name
        self.closure = {name: self._reachable(name) for name in self.modules}

    def _reachable(self, name):
        seen, stack = set(), [name]
        while stack:
            for dep in self.modules[stack.pop()].deps:
                if dep not in seen:
                    seen.add(dep)
                    stack.append(dep)
        return seen

    def owner(self, path):
        """(kind, module) of a file relative to the root: kind is 'module', 'public',
        'unowned-public', 'umbrella', 'base', 'forbidden' (cli/, tests/) or 'other'."""
        parts = path.parts
        if path == BASE_HEADER:
            return "base", None
        if parts[:2] == ("include", "pmucat"):
            if path not in self.public_owner:
                return "unowned-public", None
            owner = self.public_owner[path]
            return ("umbrella", None) if owner is None else ("public", owner)
        if parts[:1] == ("src",) and len(parts) > 2:
            if path in self.listed_source:
                return "module", self.listed_source[path]
            folder = Path(*parts[:2])
            in_folder = self.by_folder.get(folder, [])
            for module in in_folder:
                if module.name == parts[1]:
                    return "module", module.name
            return ("module", in_folder[0].name) if in_folder else ("other", None)
        if parts[:1] in (("cli",), ("tests",)):
            return "forbidden", parts[0]
        return "other", None

    def module_files(self):
        """(path relative to root, module) of every file that belongs to a module."""
        files = []
        for base in ("src", "include/pmucat"):
            for path in sorted((self.root / base).rglob("*")):
                if path.is_file() and path.suffix in SOURCE_SUFFIXES:
                    relative = path.relative_to(self.root)
                    kind, module = self.owner(relative)
                    if kind in ("module", "public"):
                        files.append((relative, module))
        return files

    def resolve(self, includer, spelled, quoted):
        """Where `#include` of `spelled` in `includer` lands, relative to the root, or None."""
        bases = [includer.parent] if quoted else []
        bases += [Path("src"), Path("include")]
        if quoted:  # what a stray include path would find: the tools' and the tests' folders
            bases += [Path("cli"), Path("tests")]
        for base in bases:
            candidate = Path(os.path.normpath(base / spelled))
            if candidate.parts[:1] == ("..",):
                continue
            if (self.root / candidate).is_file():
                return candidate
        return None


def includes(root, path):
    """(line number, spelled, quoted) of each #include of a file relative to `root`."""
    lines = (root / path).read_text(encoding="utf-8", errors="replace").splitlines()
    for number, line in enumerate(lines, 1):
        match = INCLUDE.match(line)
        if match:
            yield number, match.group(2), match.group(1) == '"', lines[0] if lines else ""


def check_tests(root):
    """Violations of tests that include internal headers without saying so."""
    violations = []
    for path in sorted((root / "tests").rglob("*")):
        relative = path.relative_to(root)
        if not path.is_file() or path.suffix not in SOURCE_SUFFIXES or \
                relative.is_relative_to(FIXTURES):
            continue
        for number, spelled, quoted, first_line in includes(root, relative):
            public = [relative.parent, Path("tests"), Path("include")] if quoted else \
                [Path("include")]
            if any((root / base / spelled).is_file() for base in public):
                continue
            for base in ("src", "cli"):
                if (root / base / spelled).is_file() and \
                        not first_line.startswith(INTERNAL_TEST_MARK):
                    violations.append(
                        f"{relative}:{number}: includes {base}/{spelled}, an internal header, "
                        f"without '{INTERNAL_TEST_MARK.strip()}' on its first line")
    return violations


ARCHITECTURE = Path("docs/architecture.md")
TABLE_HEADER = re.compile(r"^\|\s*module\s*\|\s*folder\s*\|\s*job\s*\|\s*uses\s*\|")


def check_docs(root, layout):
    """Violations of docs/architecture.md's module table against the declarations."""
    path = root / ARCHITECTURE
    if not path.is_file():
        return []
    rows, in_table = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if TABLE_HEADER.match(line):
            in_table = True
            continue
        if not in_table or re.match(r"^\|[-\s|]*$", line):
            continue
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5:
            continue
        name = cells[0]
        uses = [] if cells[3] in ("", "—", "-") else [word.strip() for word in cells[3].split(",")]
        headers = re.findall(r"`([^`]+)`", cells[4])
        if any(name == row[0] for row in rows):
            yield f"{ARCHITECTURE}:{number}: a second row for module {name}"
        rows.append((name, number, uses, headers))
    for name, number, uses, headers in rows:
        module = layout.modules.get(name)
        where = f"{ARCHITECTURE}:{number}: module {name}"
        if module is None:
            yield f"{where}: no src/*/CMakeLists.txt declares it"
            continue
        if sorted(uses) != sorted(module.deps):
            yield (f"{where}: the table says it uses {', '.join(sorted(uses)) or '—'}; its "
                   f"declaration, {', '.join(sorted(module.deps)) or '—'}")
        if sorted(headers) != sorted(module.headers):
            yield (f"{where}: the table lists headers {' '.join(sorted(headers)) or '—'}; its "
                   f"declaration, {' '.join(sorted(module.headers)) or '—'}")
    for name in layout.modules:
        if not any(name == row[0] for row in rows):
            yield f"{ARCHITECTURE}: module {name} has no row in the module table"


def check(root):
    """(layout, violations, number of includes checked)."""
    layout = Layout(root)
    violations = []
    checked = 0
    for path, module in layout.module_files():
        for number, spelled, quoted, _ in includes(root, path):
            target = layout.resolve(path, spelled, quoted)
            if target is None:
                continue
            checked += 1
            kind, owner = layout.owner(target)
            where = f"{path}:{number}: {module} includes {target}"
            if kind == "forbidden":
                violations.append(f"{where}: a {owner}/ header (modules never include {owner}/)")
            elif kind == "unowned-public":
                violations.append(f"{where}: no module owns this public header")
            elif kind == "umbrella":
                violations.append(f"{where}: the umbrella header (for consumers only)")
            elif kind in ("module", "public") and owner != module and \
                    owner not in layout.closure[module]:
                violations.append(f"{where} of module {owner}, which {module} does not use")
    return layout, violations + check_tests(root) + list(check_docs(root, layout)), checked


def print_report(layout, violations, checked):
    print("module graph (src/*/CMakeLists.txt; public headers: HEADERS of pmucat_module())")
    owned = {}
    for path, owner in layout.public_owner.items():
        owned.setdefault(owner, []).append(path.name)
    for name, module in layout.modules.items():
        direct = " ".join(module.deps) or "-"
        indirect = " ".join(sorted(layout.closure[name] - set(module.deps)))
        line = f"  {name:<15} uses {direct}"
        if indirect:
            line += f" (and through them {indirect})"
        print(line)
        print(f"  {'':<15} public: {' '.join(sorted(owned.get(name, []))) or '-'}")
    if None in owned:
        print(f"  umbrella        {' '.join(sorted(owned[None]))} (belongs to no module)")
    if (layout.root / BASE_HEADER).is_file():
        print(f"  base            {BASE_HEADER.name} (belongs to no module; every module may "
              f"include it)")
    print(f"{checked} includes checked in {len(layout.module_files())} module files: "
          f"{len(violations)} violation(s)")
    for violation in violations:
        print(f"  {violation}")


def self_test(fixtures):
    ok = True
    _, good, _ = check(fixtures / "good")
    if good:
        ok = False
        print("self-test: the good layout has violations:", *good, sep="\n  ")
    _, bad, _ = check(fixtures / "bad")
    expected = [line.strip() for line in
                (fixtures / "bad" / "expected.txt").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    if sorted(bad) != sorted(expected):
        ok = False
        print("self-test: the bad layout's violations differ from expected.txt")
        print("  found:", *bad, sep="\n    ")
        print("  expected:", *expected, sep="\n    ")
    try:
        Layout(fixtures / "broken")
        ok = False
        print("self-test: a module using an undeclared module was accepted")
    except DeclarationError as error:
        print(f"self-test: broken declarations rejected: {error}")
    print("self-test:", "passed" if ok else "FAILED",
          f"({len(bad)} violations caught in {fixtures / 'bad'})")
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--self-test", type=Path, metavar="DIR")
    args = parser.parse_args()
    try:
        if args.self_test:
            return self_test(args.self_test)
        layout, violations, checked = check(args.root)
    except DeclarationError as error:
        print(f"check-layering: {error}", file=sys.stderr)
        return 2
    print_report(layout, violations, checked)
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
