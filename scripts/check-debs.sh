#!/usr/bin/env bash
# Proves the Debian packages of a build configured by `scripts/dev.sh deb` (docs/packaging.md):
#  1. lintian: no error and no warning on any of the five .deb files;
#  2. they install with dpkg into a throw-away root: this machine's / under an overlay whose
#     upper layer is a tmpfs, in a private mount namespace (needs root), with /usr/local hidden,
#     so nothing of pmucat is there before (checked) and nothing is left after;
#  3. there, each tool runs (the vendor tables of pmucat-events included), the man pages are
#     found, a CMake consumer (find_package), a pkg-config consumer, a C program linking
#     libpmucat.so and the Python module build and run against /usr only.
# Usage: scripts/check-debs.sh [BUILD_DIR]   (default build-deb; the .deb files are in it)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=$(realpath "${1:-build-deb}")
repo=$PWD
start=$(date +%s)

fail() {
  echo "check-debs: $*" >&2
  exit 1
}

mapfile -t debs < <(find "$build_dir" -maxdepth 1 -name '*.deb' | sort)
expected=(libpmucat-dev libpmucat0.1 pmucat pmucat-events python3-pmucat)
names=()
for deb in "${debs[@]}"; do names+=("$(dpkg-deb -f "$deb" Package)"); done
mapfile -t names < <(printf '%s\n' "${names[@]}" | sort)
[[ "${names[*]}" == "${expected[*]}" ]] ||
  fail "packages in $build_dir: '${names[*]}', expected '${expected[*]}'"
for deb in "${debs[@]}"; do
  printf '%-40s %s, %s KiB\n' "$(basename "$deb")" "$(dpkg-deb -f "$deb" Architecture)" \
    "$(($(stat -c %s "$deb") / 1024))"
done

# --- 1. lintian --------------------------------------------------------------------------------
lintian --fail-on error,warning --tag-display-limit 0 "${debs[@]}" ||
  fail "lintian reports errors or warnings (above)"
echo "lintian: no error, no warning"

# --- 2 and 3. installed into a throw-away root -------------------------------------------------
if [[ $(id -u) != 0 ]]; then
  echo "check-debs: WARNING: not root: no install test (it needs a private mount namespace)" >&2
  exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/payload/debs"
cp "${debs[@]}" "$scratch/payload/debs/"
cp -r fixtures/sysfs/intel-spr "$scratch/payload/intel-spr"
cp -r examples "$scratch/payload/examples"

cat >"$scratch/inside.sh" <<'EOF'
# Runs inside the throw-away root, as root, from /pkgtest.
set -euo pipefail
cd /pkgtest
fail() { echo "check-debs (installed): $*" >&2; exit 1; }
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
[[ ! -e /usr/include/pmucat && ! -e /usr/bin/pmuls ]] || fail "pmucat is there before the install"
dpkg -i debs/*.deb >dpkg.log 2>&1 || { cat dpkg.log >&2; fail "dpkg -i"; }
dpkg -s libpmucat0.1 libpmucat-dev pmucat python3-pmucat pmucat-events >/dev/null
tree=/pkgtest/intel-spr
for tool in pmuls pmuencode pmucheck pmudiff pmusnap pmumetric pmustat pmudata; do
  "$tool" --version >/dev/null || fail "$tool --version"
  man -w "$tool" >/dev/null || fail "no man page for $tool"
done
pmuls --sysfs "$tree" --pmu cpu >/dev/null || fail "pmuls"
# A JSON event name: the tables of pmucat-events, found from /usr/bin.
# grep -q on a here-string, not a pipe: grep stopping at the first match would end the writer with
# SIGPIPE, which pipefail turns into a failure whenever the writer had more to write.
grep -q 'config' <<<"$(pmuencode --sysfs "$tree" --cpuid GenuineIntel-6-AD-1 inst_retired.any)" ||
  fail "pmuencode of inst_retired.any (pmucat-events' tables)"
pmucheck --sysfs "$tree" >/dev/null || fail "pmucheck"
pmudiff "$tree" "$tree" >/dev/null || fail "pmudiff"
pmusnap --sysfs "$tree" /pkgtest/snap.tar.gz >/dev/null || fail "pmusnap"
pmuls --sysfs /pkgtest/snap.tar.gz --pmu cpu >/dev/null || fail "pmuls on the capture"
pmumetric --help >/dev/null || fail "pmumetric --help"
pmudata --help >/dev/null || fail "pmudata --help"
echo "tools, man pages and the vendor tables: ok"

cmake -S examples/find_package -B cons-cmake -G Ninja >cons.log 2>&1 &&
  cmake --build cons-cmake >>cons.log 2>&1 || { cat cons.log >&2; fail "CMake consumer"; }
for component in "" core check perfdata count proto; do
  cmake -S examples/components -B "cons-${component:-all}" -G Ninja -DPMUCAT_COMPONENT="$component" \
    >cons.log 2>&1 && cmake --build "cons-${component:-all}" >>cons.log 2>&1 ||
    { cat cons.log >&2; fail "CMake consumer of component ${component:-all}"; }
done
g++ -std=c++20 examples/components/core.cpp -o cons-pc $(pkg-config --cflags --libs pmucat-core) ||
  fail "pkg-config consumer"
gcc -std=gnu11 examples/c/count_tsc.c -o cons-c -lpmucat || fail "C consumer of libpmucat.so"
grep -Eq 'libpmucat.so.0.1 => (/usr)?/lib/' <<<"$(ldd cons-c)" ||
  fail "cons-c does not load /usr's library"
status=0
./cons-c >/dev/null 2>&1 || status=$?
[[ $status == 0 || $status == 77 ]] || fail "the C consumer exited $status"
python3 -c "
import pmucat
catalog = pmucat.Catalog.open(sysfs='$tree')
event = catalog.encode('cpu/event=0x3c,umask=0x1/')[0]
assert event.config == 0x13c, hex(event.config)
print('python3-pmucat:', pmucat.__file__)
" || fail "python3 -c 'import pmucat'"
echo "consumers (CMake, each component, pkg-config, C, Python): ok"
EOF

cp "$scratch/inside.sh" "$scratch/payload/inside.sh"
mkdir -p "$scratch/ns"
# unshare makes the new namespace's mounts private from /, which it cannot where / is no mount
# point (a chroot, such as scripts/check-fresh-root.sh's root): there the propagation is left as
# it is and the scratch directory, a private mount of its own, holds every mount made below.
propagation=()
unshare -m true 2>/dev/null || propagation=(--propagation unchanged)
unshare -m "${propagation[@]}" bash -s "$scratch" <<'EOF'
set -euo pipefail
scratch=$1
mount --bind "$scratch" "$scratch"
mount --make-rprivate "$scratch"
ns=$scratch/ns
# The upper layer on a tmpfs: whatever dpkg writes goes there and is gone with the namespace.
mount -t tmpfs tmpfs "$ns" -o size=2g
mkdir -p "$ns/upper" "$ns/work" "$ns/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$ns/upper,workdir=$ns/work" "$ns/root"
root=$ns/root
mount --bind /proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/usr/local"
mount -t tmpfs tmpfs "$root/tmp"
cp -r "$scratch/payload" "$root/pkgtest"
chroot "$root" /bin/bash /pkgtest/inside.sh
EOF
echo "check-debs: ok in $(($(date +%s) - start)) s"
