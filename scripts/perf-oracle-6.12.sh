#!/usr/bin/env bash
# Builds perf 6.12 (Debian 12's linux-source-6.12, security suite), the second oracle of the
# differential tests beside the packaged perf 6.1, once per checkout into .cache/perf-6.12/perf.
# Minimal features (libtraceevent for tracepoints; no BPF, DWARF, scripting, UI); the JSON tables of every
# architecture are built in (JEVENTS_ARCH=all), so PERF_CPUID can select any model, as the
# differential tests do. About 4 minutes on 2 cores; a second call returns at once.
#   scripts/perf-oracle-6.12.sh [OUT_DIR]      default OUT_DIR: .cache/perf-6.12
# Prints the binary's path. Needs root for apt when a package is missing (PMUCAT_NO_INSTALL=1:
# never install; fail instead). Neither perf nor the kernel source is ever committed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$here/.cache/perf-6.12}
tarball=/usr/src/linux-source-6.12.tar.xz
want_version=6.12

# A binary of an older checkout of this script (built without libtraceevent) is rebuilt.
if [ -x "$out/perf" ] && grep -q "^perf version $want_version" <<<"$("$out/perf" --version 2>/dev/null)" &&
  grep -q "libtraceevent: \[ on" <<<"$("$out/perf" version --build-options 2>/dev/null)"; then
  echo "$out/perf"
  exit 0
fi

# shellcheck source=scripts/debian-packages.sh
source "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh"
install_missing_packages perf-oracle-6.12 linux-source-6.12 flex bison libelf-dev libtraceevent-dev python3 make gcc xz-utils

mkdir -p "$out"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
# perf's build needs its own tools/ tree, the uapi and x86/arm64 headers it copies, the kernel's
# build scripts and the perf_event core's headers: nothing else of the 150 MB tarball.
tar -xJf "$tarball" -C "$src" --wildcards \
  'linux-source-6.12/tools/*' 'linux-source-6.12/include/*' 'linux-source-6.12/arch/x86/*' \
  'linux-source-6.12/arch/arm64/*' 'linux-source-6.12/scripts/*' 'linux-source-6.12/lib/*' \
  'linux-source-6.12/usr/*' 'linux-source-6.12/kernel/events/*' 'linux-source-6.12/Makefile'
log=$out/build.log
if ! make -C "$src/linux-source-6.12/tools/perf" O="$out" -j"$(nproc)" \
  NO_LIBBPF=1 NO_JVMTI=1 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 \
  NO_LIBUNWIND=1 NO_LIBNUMA=1 NO_LIBCAP=1 NO_LIBCRYPTO=1 NO_LIBDW=1 NO_LIBDW_DWARF_UNWIND=1 \
  NO_LIBBABELTRACE=1 NO_DEMANGLE=1 NO_LIBLLVM=1 NO_SDT=1 NO_SHELLCHECK=1 JEVENTS_ARCH=all \
  >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "perf-oracle-6.12: the perf build failed (log: $log)" >&2
  exit 1
fi
"$out/perf" --version >&2
echo "$out/perf"
