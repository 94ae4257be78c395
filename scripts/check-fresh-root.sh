#!/usr/bin/env bash
# Runs a README command as a newcomer would: in a fresh Debian root of RELEASE, made with
# `debootstrap --variant=minbase`, with Debian's standard sources for that release, a clone of
# this checkout's committed HEAD, then `bash scripts/dev.sh JOB` there as root.
#   scripts/check-fresh-root.sh RELEASE [main|test|unit|build|deb|asan]   (RELEASE: bookworm or trixie)
# Prints the wall and CPU time of each phase (debootstrap, clone, the job; dev.sh reports its apt time).
# Needs root, debootstrap and git on this machine. Environment:
#   FRESH_ROOT  where the root is made (default /var/tmp/pmucat-fresh-RELEASE); it must not
#               exist, or be a root this script made (it carries .pmucat-fresh-root), which is
#               then removed and made afresh;
#   REUSE=1     run the job in the root FRESH_ROOT already holds (made by this script): no
#               debootstrap, the clone is updated to HEAD, packages and build stay;
#   MIRROR      the Debian mirror (default: the one this machine's apt configuration names;
#               the security mirror, when it names one, comes from there too);
#   JOBS, CC, CXX, BUILD_DIR, CMAKE_ARGS, DEB_BUILD_DIR are passed to dev.sh when set (a clang
#               build in the root: CC=clang CXX=clang++ BUILD_DIR=build-clang ... build);
#   CCACHE_HOST_DIR a directory of this machine mounted as the root's ccache directory, so a CI
#               step keeps the compiler cache of that release between fresh roots.
# The chroot's /proc, /sys, /dev (and /dev/pts, a private /dev/shm) are mounted in a private
# mount namespace (unshare), so they vanish with it even if this script is killed, and they are
# unmounted on exit; before removing a root it checks that nothing is mounted under it.
set -euo pipefail
# The whole script is one compound command: bash reads it completely before running it, so an
# edit of this file during a run (which takes many minutes) cannot change the running script.
{
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
release=${1:-}
job=${2:-main}
case "$release" in bookworm | trixie) ;; *)
  awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0" >&2
  exit 2
  ;;
esac
case "$job" in main | test | unit | build | deb | asan) ;; *)
  echo "check-fresh-root: job must be main, test, unit, build, deb or asan, not '$job'" >&2
  exit 2
  ;;
esac
[ "$(id -u)" = 0 ] || { echo "check-fresh-root: run as root (debootstrap, chroot)" >&2; exit 2; }
for tool in debootstrap git unshare; do
  command -v "$tool" >/dev/null || { echo "check-fresh-root: $tool is missing (apt-get install $tool)" >&2; exit 2; }
done
root=${FRESH_ROOT:-/var/tmp/pmucat-fresh-$release}
marker=$root/.pmucat-fresh-root
# shellcheck source=scripts/apt-mirrors.sh
source "$(dirname "${BASH_SOURCE[0]}")/apt-mirrors.sh"
if [ -n "${MIRROR:-}" ]; then
  apt_mirrors 2>/dev/null || true
  mirror=$MIRROR
else
  apt_mirrors || exit 2
fi

# CPU seconds (user + sys) of the commands this shell has waited for: on a loaded machine the
# wall time depends on the load, the CPU time hardly. `times` must run in this shell, not in a
# pipe or $(...), whose subshell has no children.
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
children_cpu() {
  times >"$times_file"
  cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/);
                       printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
}
children_cpu
phase_cpu=$cpu
phase_start=$(date +%s.%N)
phase() { # NAME: prints the wall and CPU time since the previous phase ended
  local now
  now=$(date +%s.%N)
  children_cpu
  awk -v n="$1" -v a="$now" -v b="$phase_start" -v c="$cpu" -v d="$phase_cpu" \
    'BEGIN { printf "check-fresh-root: %-12s %7.1f s (CPU %.1f s)\n", n, a - b, c - d }' >&2
  phase_start=$now
  phase_cpu=$cpu
}

# Anything mounted at or below the root (as this mount namespace sees it)?
mounted_under() {
  local real
  real=$(realpath -m "$1")
  awk -v r="$real" '$5 == r || index($5, r "/") == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo
}

if [ "${REUSE:-0}" = 1 ]; then
  [ -f "$marker" ] || { echo "check-fresh-root: REUSE=1 but $root is not a root made by this script" >&2; exit 2; }
else
  if [ -e "$root" ]; then
    [ -f "$marker" ] || { echo "check-fresh-root: $root exists and is not a root made by this script; not touching it" >&2; exit 2; }
    ! mounted_under "$root" || { echo "check-fresh-root: something is mounted under $root; not removing it" >&2; exit 2; }
    rm -rf --one-file-system "$root"
  fi
  mkdir -p "$root"
  touch "$marker"
  debootstrap --variant=minbase "$release" "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || {
    tail -20 "$root.debootstrap.log" >&2
    exit 1
  }
  touch "$marker" # debootstrap may have recreated the directory's contents
  phase debootstrap
  # Debian's standard sources for the release (deb822), as a fresh installation has them.
  rm -f "$root/etc/apt/sources.list"
  cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $release $release-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  if [ -n "$security" ]; then
    printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\nSigned-By: %s\n' \
      "$security" "$release" /usr/share/keyrings/debian-archive-keyring.gpg \
      >>"$root/etc/apt/sources.list.d/debian.sources"
  fi
  # No service is started by a package installed in the chroot.
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 755 "$root/usr/sbin/policy-rc.d"
  cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
fi

# The committed HEAD of this checkout, as a fresh clone (uncommitted changes are not in it).
head=$(git -C "$here" rev-parse HEAD)
src=$root/root/pmucat
if [ -d "$src/.git" ]; then
  git -C "$src" fetch -q "$here" "$head"
  git -C "$src" checkout -q --detach "$head"
else
  git clone -q --no-local "$here" "$src"
  git -C "$src" checkout -q --detach "$head"
fi
phase clone
echo "check-fresh-root: $release root $root, pmucat $head, bash scripts/dev.sh $job" >&2

passed_env=()
for name in JOBS CC CXX BUILD_DIR CMAKE_ARGS DEB_BUILD_DIR; do
  [ -z "${!name:-}" ] || passed_env+=("$name=${!name}")
done

# The job, in a private mount namespace: the mounts exist only there and go with it.
set +e
# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount --propagation private -- /bin/bash -euo pipefail -c '
  root=$1 job=$2 ccache_dir=$3
  shift 3
  cleanup() { for m in root/.cache/ccache dev/shm dev/pts dev sys proc; do umount -l "$root/$m" 2>/dev/null || true; done; }
  trap cleanup EXIT
  mount -t proc proc "$root/proc"
  mount --bind /sys "$root/sys"
  mount --bind /dev "$root/dev"
  mount --bind /dev/pts "$root/dev/pts"
  mount -t tmpfs -o mode=1777,size=256m tmpfs "$root/dev/shm"
  if [ -n "$ccache_dir" ]; then
    mkdir -p "$root/root/.cache/ccache"
    mount --bind "$ccache_dir" "$root/root/.cache/ccache"
  fi
  # The job is a process group of its own, in the background: a signal to this shell (which
  # bash handles only between commands) stops the whole job, compilers included, then unmounts.
  setsid chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@" \
    /bin/bash -c "cd /root/pmucat && bash scripts/dev.sh $job" &
  job_pid=$!
  trap "kill -TERM -- -$job_pid 2>/dev/null; wait $job_pid; exit 130" INT TERM HUP
  wait "$job_pid"
' check-fresh-root "$root" "$job" "${CCACHE_HOST_DIR:-}" "${passed_env[@]}" &
namespace_pid=$!
# Forwarded, so that stopping this script stops the job in the root.
trap 'kill -TERM "$namespace_pid" 2>/dev/null' INT TERM HUP
wait "$namespace_pid"
rc=$?
# A trapped signal ends `wait` early: wait again until the namespace has stopped and unmounted.
while kill -0 "$namespace_pid" 2>/dev/null; do
  wait "$namespace_pid"
  rc=$?
done
set -e
phase "dev.sh $job"
if mounted_under "$root"; then
  echo "check-fresh-root: mounts left under $root (see /proc/self/mountinfo)" >&2
  rc=1
fi
echo "check-fresh-root: bash scripts/dev.sh $job in a fresh $release root: exit $rc" >&2
exit "$rc"
}
