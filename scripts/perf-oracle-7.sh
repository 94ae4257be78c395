#!/usr/bin/env bash
# The perf 7 oracles of the differential tests: perf 7.3 (Debian's linux-source-7.3 from
# trixie-backports) and perf 7.2 (linux-source-7.2 from sid), beside the packaged perf 6.1 and
# scripts/perf-oracle-6.12.sh's perf 6.12.
#   scripts/perf-oracle-7.sh RELEASE [OUT_DIR]   RELEASE: 7.3 or 7.2; default OUT_DIR: .cache/perf-RELEASE
# Builds OUT_DIR/perf once (about 6 minutes on 2 cores; a later call returns at once) and prints
# its path. The feature set matches the 6.12 build (libtraceevent on; no BPF, DWARF, scripting,
# UI, Rust, libpfm4), and the JSON tables of every architecture are built in (JEVENTS_ARCH=all) so
# PERF_CPUID can pick any model.
# The source comes from /usr/src/linux-source-RELEASE.tar.xz, else from
# .cache/linux-source/linux-source-RELEASE.tar.xz (where scripts/dev.sh keeps the kernel sources it
# fetches), else the linux-source-RELEASE package is downloaded from its suite through a
# private apt state in a temporary directory (the host's apt sources and dpkg database are left as
# they are; the .deb is unpacked, not installed) and its tarball is kept there for the next build.
#
# PERF_ROOT=DIR: use Debian's packaged perf RELEASE installed in the Debian root DIR instead (for
# timing the distribution's build): prints the path of OUT_DIR/perf-in-root, a wrapper that runs
# DIR's perf in a chroot that sees the caller's /sys (so a bind-mounted fake PMU tree reaches it).
# Needs root. Neither perf, nor its source, nor the root is ever committed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
want=${1:-}
# The Debian suite that ships each release's linux-source package.
case "$want" in
  7.3) suite=trixie-backports ;;
  7.2) suite=sid ;;
  *)
    echo "usage: scripts/perf-oracle-7.sh 7.3|7.2 [OUT_DIR]" >&2
    exit 2
    ;;
esac
out=${2:-$here/.cache/perf-$want}
src_name=linux-source-$want

is_wanted() { grep -q "^perf version $want\." <<<"$("$@" --version 2>/dev/null)"; }

mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ -n "${PERF_ROOT:-}" ]; then
  root=$(cd "$PERF_ROOT" 2>/dev/null && pwd) || {
    echo "perf-oracle-$want: PERF_ROOT=$PERF_ROOT is not a directory" >&2
    exit 2
  }
  [ -x "$root/usr/bin/perf" ] || {
    echo "perf-oracle-$want: $root has no usr/bin/perf (install linux-perf from $suite there)" >&2
    exit 2
  }
  wrapper=$out/perf-in-root
  # The chroot gets the caller's /sys (recursively, so a fake tree bind-mounted over
  # /sys/bus/event_source/devices in the caller's mount namespace shows through), /proc and /dev,
  # all inside a private mount namespace that ends with perf.
  cat >"$wrapper.tmp" <<EOF
#!/usr/bin/env bash
exec unshare -m bash -c 'r=\$0
  mount --rbind /sys "\$r/sys" && mount -t proc proc "\$r/proc" && mount --rbind /dev "\$r/dev" || exit 98
  cd / && exec chroot "\$r" /usr/bin/perf "\$@"' '$root' "\$@"
EOF
  chmod +x "$wrapper.tmp"
  mv "$wrapper.tmp" "$wrapper"
  is_wanted "$wrapper" || {
    echo "perf-oracle-$want: the perf in $root is not perf $want: $("$wrapper" --version 2>&1 | head -n 1)" >&2
    exit 1
  }
  echo "$wrapper"
  exit 0
fi

if [ -x "$out/perf" ] && is_wanted "$out/perf" &&
  grep -q "libtraceevent: \[ on" <<<"$("$out/perf" version --build-options 2>/dev/null)"; then
  echo "$out/perf"
  exit 0
fi

# One build at a time per OUT_DIR: the differential tests and a developer may ask together.
exec 9>"$out.lock"
flock 9
if [ -x "$out/perf" ] && is_wanted "$out/perf"; then
  echo "$out/perf"
  exit 0
fi

# shellcheck source=scripts/debian-packages.sh
source "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh"
install_missing_packages "perf-oracle-$want" flex bison libelf-dev libtraceevent-dev pkg-config python3 make gcc xz-utils

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kept=$here/.cache/linux-source/$src_name.tar.xz
tarball=/usr/src/$src_name.tar.xz
[ -f "$tarball" ] || tarball=$kept
if [ ! -f "$tarball" ]; then
  # The release's suite on the mirror this machine's apt already uses.
  # shellcheck source=scripts/apt-mirrors.sh
  source "$here/scripts/apt-mirrors.sh"
  apt_mirrors || {
    echo "perf-oracle-$want: no $tarball to build from" >&2
    exit 2
  }
  st=$tmp/apt
  mkdir -p "$st/lists/partial" "$st/archives/partial"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
    >"$st/sources.list"
  apt_opts=(-o Dir::Etc::SourceList="$st/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::State::Lists="$st/lists" -o Dir::Cache="$st" -o Dir::Cache::archives="$st/archives"
    -o APT::Sandbox::User=root)
  apt-get "${apt_opts[@]}" update -qq
  (cd "$tmp" && apt-get "${apt_opts[@]}" download "$src_name" >/dev/null)
  dpkg -x "$tmp"/"$src_name"_*.deb "$tmp/deb"
  mkdir -p "$(dirname "$kept")"
  mv "$tmp/deb/usr/src/$src_name.tar.xz" "$kept"
  rm -rf "$tmp/deb" "$tmp"/*.deb
  tarball=$kept
fi

# perf's build reads its own tools/ tree, the uapi and x86/arm64 headers it copies, the kernel's
# build scripts and the perf_event core's headers: a fraction of the tarball.
tar -xJf "$tarball" -C "$tmp" --wildcards \
  "$src_name/tools/*" "$src_name/include/*" "$src_name/arch/x86/*" "$src_name/arch/arm64/*" \
  "$src_name/scripts/*" "$src_name/lib/*" "$src_name/usr/*" "$src_name/kernel/events/*" \
  "$src_name/Makefile"
log=$out/build.log
if ! make -C "$tmp/$src_name/tools/perf" O="$out" -j"${JOBS:-$(nproc)}" \
  NO_LIBBPF=1 BUILD_BPF_SKEL=0 NO_JVMTI=1 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 \
  NO_LIBUNWIND=1 NO_LIBNUMA=1 NO_LIBCAP=1 NO_LIBCRYPTO=1 NO_LIBDW=1 NO_LIBDW_DWARF_UNWIND=1 \
  NO_LIBBABELTRACE=1 NO_DEMANGLE=1 NO_LIBLLVM=1 NO_CAPSTONE=1 NO_SDT=1 NO_SHELLCHECK=1 \
  NO_RUST=1 NO_LIBPFM4=1 NO_LIBZSTD=1 NO_LZMA=1 NO_ZLIB=1 NO_AUXTRACE=1 NO_LIBDEBUGINFOD=1 \
  JEVENTS_ARCH=all >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "perf-oracle-$want: the perf build failed (log: $log)" >&2
  exit 1
fi
"$out/perf" --version >&2
echo "$out/perf"
