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
