#!/usr/bin/env bash
# Installs a built tree into a scratch prefix and builds examples/find_package against it, once
# with find_package(pmucat) and once with pkg-config, then runs the result on a fixture.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=${1:-build}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cmake --install "$build_dir" --prefix "$scratch/prefix" >/dev/null
cmake -S examples/find_package -B "$scratch/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/consumer" >/dev/null
out=$("$scratch/consumer/encode_one" fixtures/sysfs/intel-spr 'cpu/event=0x3c,umask=0x1/')
echo "find_package consumer: $out"
case "$out" in *"config=0x13c"*) ;; *) echo "check-install: unexpected output" >&2; exit 1 ;; esac

PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig:$scratch/prefix/lib/x86_64-linux-gnu/pkgconfig" \
  g++ -std=c++20 examples/find_package/main.cpp -o "$scratch/encode_pc" \
  $(PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig:$scratch/prefix/lib/x86_64-linux-gnu/pkgconfig" \
    pkg-config --cflags --libs --static pmucat)
"$scratch/encode_pc" fixtures/sysfs/intel-spr 'cpu/event=0x3c,umask=0x1/' >/dev/null
echo "pkg-config consumer: ok"

# The licence travels with the package: the text, the CMake package variable and the .pc file.
pc_path="$scratch/prefix/lib/pkgconfig:$scratch/prefix/lib/x86_64-linux-gnu/pkgconfig"
[[ -f $scratch/prefix/share/doc/pmucat/LICENSE ]] ||
  { echo "check-install: share/doc/pmucat/LICENSE not installed" >&2; exit 1; }
license=$(PKG_CONFIG_PATH="$pc_path" pkg-config --variable=license pmucat)
[[ $license == MIT ]] || { echo "check-install: pkg-config license is '$license'" >&2; exit 1; }
config=$(find "$scratch/prefix" -name pmucatConfig.cmake | head -1)
grep -q '^set(PMUCAT_LICENSE "MIT")' "$config" ||
  { echo "check-install: pmucatConfig.cmake does not set PMUCAT_LICENSE MIT" >&2; exit 1; }
echo "licence: $license (LICENSE, pmucatConfig.cmake, pmucat.pc)"
