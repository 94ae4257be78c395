#!/usr/bin/env bash
# Proves the installed package component by component, from scratch installs of a built tree:
#  1. core, check, perfdata and count installed alone (cmake --install --component) and used where
#     Protobuf, CLI11 and nlohmann_json are not visible: a private mount namespace with empty
#     directories and files bind-mounted over their headers, CMake packages and .pc files (needs
#     root). Every header installed there compiles, each component's consumer
#     (examples/components) configures, builds and runs, and pkg-config pmucat-core works.
#  2. the whole install: each component's consumer, the pmucat::pmucat one (consumers written
#     before the components), examples/find_package, pkg-config consumers, a C and a C++ program
#     against libpmucat.so, the licence.
# Usage: scripts/check-install.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=$(realpath "${1:-build}")
repo=$PWD
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tree=$repo/fixtures/sysfs/intel-spr
spec='cpu/event=0x3c,umask=0x1/'
start=$(date +%s)

fail() {
  echo "check-install: $*" >&2
  exit 1
}
# consumer <prefix> <build dir> [component]: configures and builds examples/components.
consumer() {
  cmake -S "$repo/examples/components" -B "$2" -G Ninja -DCMAKE_PREFIX_PATH="$1" \
    -DPMUCAT_COMPONENT="${3:-}" >"$2.log" 2>&1 || { cat "$2.log" >&2; fail "configure ${3:-all}"; }
  cmake --build "$2" >>"$2.log" 2>&1 || { cat "$2.log" >&2; fail "build ${3:-all}"; }
}

# --- 1. core, check, perfdata, count without Protobuf, CLI11 and nlohmann_json -----------------
alone=$scratch/alone
for component in core check perfdata count; do
  cmake --install "$build_dir" --prefix "$alone" --component "$component" >/dev/null
done
[[ ! -e $alone/lib/libpmucat-proto.a && ! -e $alone/bin ]] ||
  fail "--component core/check/perfdata/count installed more than those"

# What the three packages install that a compiler or CMake or pkg-config would find.
mapfile -t hidden < <(dpkg -L libprotobuf-dev libcli11-dev nlohmann-json3-dev 2>/dev/null |
  grep -E '^/usr/include/(google/protobuf|CLI|nlohmann)$|/cmake/[^/]+$|\.pc$' | sort -u)
((${#hidden[@]} >= 6)) ||
  hidden=(/usr/include/google/protobuf /usr/include/CLI /usr/include/nlohmann
    /usr/share/cmake/CLI11 /usr/share/cmake/nlohmann_json
    /usr/lib/x86_64-linux-gnu/pkgconfig/protobuf.pc /usr/share/pkgconfig/CLI11.pc
    /usr/share/pkgconfig/nlohmann_json.pc)

cat >"$scratch/hidden.sh" <<'EOF'
set -euo pipefail
repo=$1 alone=$2 scratch=$3 tree=$4 spec=$5
shift 5
mkdir -p "$scratch/empty-dir"
: >"$scratch/empty-file"
for path in "$@"; do
  if [[ -d $path ]]; then
    mount --bind "$scratch/empty-dir" "$path"
  elif [[ -f $path ]]; then
    mount --bind "$scratch/empty-file" "$path"
  fi
done
[[ ! -e /usr/include/nlohmann/json.hpp && ! -e /usr/include/CLI/CLI.hpp &&
   ! -e /usr/include/google/protobuf/message.h ]] || { echo "hiding failed" >&2; exit 1; }
if pkg-config --exists protobuf 2>/dev/null || pkg-config --exists nlohmann_json 2>/dev/null; then
  echo "hiding failed (pkg-config)" >&2
  exit 1
fi

# Every installed header, in one translation unit.
for header in "$alone"/include/pmucat/*.h; do
  echo "#include \"pmucat/${header##*/}\""
done >"$scratch/headers.cpp"
g++ -std=c++20 -fsyntax-only -I"$alone/include" "$scratch/headers.cpp"
echo "hidden: $(ls "$alone/include/pmucat" | wc -l) installed headers compile"

. "$scratch/consumer.sh"
consumer "$alone" "$scratch/alone-core" core
"$scratch/alone-core/consumer" "$tree" "$spec"
consumer "$alone" "$scratch/alone-check" check
"$scratch/alone-check/consumer" "$tree"
consumer "$alone" "$scratch/alone-perfdata" perfdata
"$scratch/alone-perfdata/consumer" "$tree" "$spec" "$scratch/alone.data"
consumer "$alone" "$scratch/alone-count" count
"$scratch/alone-count/consumer"

pc=$(PKG_CONFIG_PATH="$alone/lib/pkgconfig" pkg-config --cflags --libs pmucat-core)
g++ -std=c++20 "$repo/examples/components/core.cpp" -o "$scratch/core-pc" $pc
"$scratch/core-pc" "$tree" "$spec" >/dev/null
echo "hidden: pkg-config pmucat-core consumer ok"
EOF
{
  declare -f fail consumer
} >"$scratch/consumer.sh"
if unshare --mount true 2>/dev/null; then
  unshare --mount bash "$scratch/hidden.sh" "$repo" "$alone" "$scratch" "$tree" \
    "$spec" "${hidden[@]}" | sed 's/^/  /'
  echo "core, check, perfdata, count: built and ran without Protobuf, CLI11, nlohmann_json" \
    "(${#hidden[@]} paths hidden)"
else
  echo "check-install: WARNING: cannot unshare a mount namespace (not root): the components" \
    "were not tried without Protobuf, CLI11 and nlohmann_json" >&2
fi

# --- 2. the whole install ----------------------------------------------------------------------
prefix=$scratch/prefix
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
for component in core check perfdata count; do
  consumer "$prefix" "$scratch/full-$component" "$component"
done
"$scratch/full-count/consumer" | sed 's/^/  /' || fail "the count consumer"
"$scratch/full-core/consumer" "$tree" "$spec" | sed 's/^/  /'
out=$("$scratch/full-core/consumer" "$tree" "$spec")
[[ $out == *"config=0x13c"* ]] || fail "unexpected output: $out"
"$scratch/full-check/consumer" "$tree" | sed 's/^/  /'
"$scratch/full-perfdata/consumer" "$tree" "$spec" "$scratch/full.data" | sed 's/^/  /'
if [[ -e $prefix/lib/libpmucat-proto.a ]]; then
  consumer "$prefix" "$scratch/full-proto" proto
  "$scratch/full-proto/consumer" "$scratch/full.data" | sed 's/^/  /'
fi
consumer "$prefix" "$scratch/full-all"
"$scratch/full-all/consumer" "$tree" "$spec" | sed 's/^/  /'
echo "find_package consumers: core, check, perfdata, count, proto, pmucat::pmucat ok"

cmake -S examples/find_package -B "$scratch/example" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  >/dev/null
cmake --build "$scratch/example" >/dev/null
"$scratch/example/encode_one" "$tree" "$spec" >/dev/null
echo "examples/find_package: ok"

pc_path="$prefix/lib/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig"
# shellcheck disable=SC2046 # word splitting of pkg-config's flags is wanted
g++ -std=c++20 examples/components/all.cpp -o "$scratch/all_pc" \
  $(PKG_CONFIG_PATH="$pc_path" pkg-config --cflags --libs pmucat)
"$scratch/all_pc" "$tree" "$spec" >/dev/null
echo "pkg-config consumer (pmucat: every component): ok"

# The shared library (component c): a C program against the installed libpmucat.so, run on the
# live tree (77: the machine has no msr/tsc/ it may open).
lib_dir=$(dirname "$(find "$prefix" -name 'libpmucat.so' | head -1)")
[[ -e $lib_dir/libpmucat.so.0.1 ]] || fail "libpmucat.so (SONAME libpmucat.so.0.1) not installed"
cc examples/c/count_tsc.c -I"$prefix/include" -L"$lib_dir" -lpmucat -o "$scratch/count_tsc"
status=0
LD_LIBRARY_PATH=$lib_dir "$scratch/count_tsc" | sed 's/^/  /' || status=$?
[[ $status == 0 || $status == 77 ]] || fail "count_tsc against the installed library: $status"
echo "C API consumer (libpmucat.so): ok"
# A C++ program against the installed libpmucat.so alone: it links only when the installed
# headers' ABI namespace (pmucat::v<major>_<minor>, pmucat/version.h) is the one the library
# exports.
g++ -std=c++20 examples/components/core.cpp -I"$prefix/include" -L"$lib_dir" -lpmucat \
  -o "$scratch/core_shared"
out=$(LD_LIBRARY_PATH=$lib_dir "$scratch/core_shared" "$tree" "$spec")
[[ $out == *"config=0x13c"* ]] || fail "C++ consumer of libpmucat.so: $out"
echo "C++ consumer (libpmucat.so): ok"
# The Python package, when the build has it: importable from the install's site directory.
site=$(find "$prefix" -path '*-packages/pmucat/__init__.py' | head -1)
if [[ -n $site ]]; then
  PYTHONPATH=$(dirname "$(dirname "$site")") /usr/bin/python3 -c \
    "import pmucat; print('  ', pmucat.Catalog.open(sysfs='$tree').encode('$spec')[0])"
  echo "Python package (installed): ok"
fi

# The licence travels with the package: the text, the CMake package variable and the .pc files.
[[ -f $prefix/share/doc/pmucat/LICENSE ]] || fail "share/doc/pmucat/LICENSE not installed"
for pc in pmucat pmucat-core; do
  license=$(PKG_CONFIG_PATH="$pc_path" pkg-config --variable=license $pc)
  [[ $license == MIT ]] || fail "pkg-config $pc license is '$license'"
done
config=$(find "$prefix" -name pmucatConfig.cmake | head -1)
grep -q '^set(PMUCAT_LICENSE "MIT")' "$config" ||
  fail "pmucatConfig.cmake does not set PMUCAT_LICENSE MIT"
echo "licence: $license (LICENSE, pmucatConfig.cmake, pmucat*.pc)"
echo "check-install: ok in $(($(date +%s) - start)) s"
