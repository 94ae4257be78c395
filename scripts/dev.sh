#!/usr/bin/env bash
# One entry point for a fresh Debian 12 (bookworm) or 13 (trixie) machine (run as root) and for CI:
#   scripts/dev.sh main     install what is missing, build pmuls and the vendor index only, run
#                           `pmuls --pmu cpu` on the intel-spr fixture
#   scripts/dev.sh test     install what is missing, build, run the whole test suite (ctest)
#   scripts/dev.sh unit     install what is missing, build, run the suite without the differential
#                           tests against real perfs (ctest -LE differential; the Debian 13 CI step)
#   scripts/dev.sh build    install what is missing and build only
#   scripts/dev.sh asan     install what is missing, build in build-asan with clang, AddressSanitizer +
#                           UndefinedBehaviorSanitizer (+ _GLIBCXX_ASSERTIONS) and libFuzzer coverage,
#                           with the fuzz targets (fuzz/run --build build-asan --no-build), run the suite
#   scripts/dev.sh deb      install what is missing, build the Debian packages in build-deb (prefix /usr,
#                           CPack), check them with lintian and an install in a throw-away root
#                           (scripts/check-debs.sh; docs/packaging.md)
# Environment: BUILD_DIR (default build), BUILD_TYPE (default Release: GCC -O3, what users build and
#              whose inliner sees warnings -O2 does not), JOBS (default nproc),
#              CMAKE_ARGS (extra cmake arguments), PMUCAT_NO_INSTALL=1 (skip apt),
#              PMUCAT_WERROR (default ON: warnings are errors with Debian 12's GCC 12 and clang 14 and
#              Debian 13's GCC 14 and clang 19);
#              ccache is used when installed (CCACHE_DISABLE=1 turns it off);
#              asan: ASAN_BUILD_DIR (default build-asan), ASAN_OPTIONS, UBSAN_OPTIONS,
#              PMUCAT_DIFF_COUNT (default 20 there), PMUCAT_VENDOR_DIFF_COUNT (default 4 there);
#              deb: DEB_BUILD_DIR (default build-deb).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
build_dir=${BUILD_DIR:-build}
build_type=${BUILD_TYPE:-Release}
jobs=${JOBS:-$(nproc)}

# Debian packages the build, the tests and the differential/perf tests need (the last line:
# quipper's, built from ../shared for the PerfDataProto interop test, and go for pprof's reader).
packages=(
  gcc g++ cmake ninja-build pkg-config make ccache
  clang llvm
  libfmt-dev libcli11-dev nlohmann-json3-dev librapidcheck-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  protobuf-compiler libprotobuf-dev libzstd-dev
  linux-perf util-linux perl tar gzip strace
  python3 python3-jsonschema libxml2-utils
  python3-dev pybind11-dev python3-pytest
  hyperfine gnuplot-nox libpfm4-dev time valgrind
  flex bison libelf-dev libtraceevent-dev xz-utils
  dpkg-dev go-md2man lintian man-db git
  libssl-dev zlib1g-dev libabsl-dev golang-go
)

# Packages named after a version the release decides: the compiler-rt of the release's default
# clang, libclang-rt-<clang's major>-dev (Debian 12: clang 14, libclang-rt-14-dev; Debian 13:
# clang 19, libclang-rt-19-dev, what its libclang-rt-dev depends on). The major comes from the
# installed clang package, else from apt's lists; empty when neither knows.
compiler_rt_package() {
  local major
  if dpkg-query -W -f='${Status}' clang 2>/dev/null | grep -q "ok installed"; then
    major=$(dpkg-query -W -f='${Depends}' clang | grep -o 'clang-[0-9]*' | head -1)
  else
    major=$(apt-cache depends clang 2>/dev/null | grep -o 'clang-[0-9]*' | head -1)
  fi
  [ -z "$major" ] || echo "libclang-rt-${major#clang-}-dev"
}

# The kernel sources whose perf JSON catalogs pmucat follows (prepare_events): the tarball of
# Debian's linux-source-<version>, installed, or fetched (see fetch_foreign_source) into .cache/.
kernel_versions=(6.1 6.12 7.3)
kernel_tarball() { # VERSION: the tarball's path, empty when there is none
  local v=$1 f
  for f in "/usr/src/linux-source-$v.tar.xz" "$here/.cache/linux-source/linux-source-$v.tar.xz"; do
    [ -f "$f" ] && { echo "$f"; return 0; }
  done
  return 0
}

# apt_mirrors: the mirrors this machine's apt configuration names.
# shellcheck source=scripts/apt-mirrors.sh
source "$here/scripts/apt-mirrors.sh"

# The suites a kernel source package this release does not install is fetched from: linux 7.3
# is in trixie-backports only (Debian 12 cannot install it, and Debian 13 machines seldom enable
# backports); another version comes from the other supported release (Debian 13 has no
# linux-source-6.1).
foreign_suites() { # VERSION
  local codename
  case "$1" in
    7.3) echo trixie-backports; return 0 ;;
  esac
  codename=$(sed -n "s/^VERSION_CODENAME=//p" /etc/os-release)
  case "$codename" in bookworm) echo "trixie trixie-updates trixie-security" ;;
    *) echo "bookworm bookworm-updates bookworm-security" ;;
  esac
}

# A kernel source package this release does not install, from the suites foreign_suites names,
# with a private apt configuration (its own sources list, lists and cache in a temporary
# directory; the machine's apt sources and dpkg database are not touched): the .deb is
# downloaded and only unpacked, its tarball kept in .cache/linux-source/.
fetch_foreign_source() { # PACKAGE VERSION
  local package=$1 version=$2 work suite suites
  suites=$(foreign_suites "$version")
  apt_mirrors || return 0
  work=$(mktemp -d)
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/deb"
  for suite in $suites; do
    case "$suite" in
      *-security)
        [ -z "$security" ] ||
          echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $security $suite main"
        ;;
      *) echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" ;;
    esac
  done >"$work/sources.list"
  local o=(-o APT::Sandbox::User=root -o Dir::Etc::SourceList="$work/sources.list"
    -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache"
    -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null)
  echo "dev.sh: $package is not installable here: fetching it from $suites (private apt configuration)" >&2
  if apt-get "${o[@]}" update -qq && (cd "$work" && apt-get "${o[@]}" download "$package" >/dev/null) &&
    dpkg-deb -x "$work/$package"_*.deb "$work/deb" &&
    [ -f "$work/deb/usr/src/linux-source-$version.tar.xz" ]; then
    mkdir -p "$here/.cache/linux-source"
    mv "$work/deb/usr/src/linux-source-$version.tar.xz" "$here/.cache/linux-source/"
  else
    echo "dev.sh: could not fetch $package from $suites" >&2
  fi
  rm -rf "$work"
}

install_missing() {
  [ "${PMUCAT_NO_INSTALL:-0}" = 1 ] && return 0
  local missing=() rt foreign=() v start
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  rt=$(compiler_rt_package)
  if [ -z "$rt" ] || ! dpkg-query -W -f='${Status}' "$rt" 2>/dev/null | grep -q "ok installed"; then
    missing+=("${rt:-compiler-rt}")
  fi
  for v in "${kernel_versions[@]}"; do
    [ -n "$(kernel_tarball "$v")" ] || missing+=("linux-source-$v")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "dev.sh: missing Debian packages: ${missing[*]} (run as root to install them)" >&2
    exit 2
  fi
  start=$(date +%s)
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Now that the lists are there: the release's names for what was not decided before.
  local wanted=()
  for p in "${missing[@]}"; do
    case "$p" in
      compiler-rt | libclang-rt-*) p=$(compiler_rt_package) ;;
    esac
    case "$p" in
      linux-source-*)
        # Installed from this release when it has the package, else fetched from the other.
        # (The exact name: apt takes linux-source-6.1 for a pattern that linux-source-6.12 matches.
        # A here-string, not a pipe: under pipefail, grep -q stopping at the first line would end
        # apt-cache with SIGPIPE and the package would count as missing.)
        if grep -qx "Package: $p" <<<"$(apt-cache show --no-all-versions "$p" 2>/dev/null)"; then
          wanted+=("$p")
        else
          foreign+=("$p")
        fi
        ;;
      "") echo "dev.sh: no compiler-rt package found for this release's clang" >&2; exit 2 ;;
      *) wanted+=("$p") ;;
    esac
  done
  if [ ${#wanted[@]} -gt 0 ]; then
    echo "dev.sh: installing ${wanted[*]}" >&2
    apt-get install -y -qq --no-install-recommends "${wanted[@]}" >/dev/null
  fi
  for p in "${foreign[@]}"; do fetch_foreign_source "$p" "${p#linux-source-}"; done
  echo "dev.sh: packages took $(($(date +%s) - start)) s" >&2
}

# Arguments every configure gets: warnings as errors (the compilers are Debian 12's or 13's, known) and
# ccache as the compiler launcher when it is installed (use_ccache_if_installed).
common_args=(-G Ninja "-DPMUCAT_WERROR=${PMUCAT_WERROR:-ON}")

# Decided after install_missing, which installs ccache: a first run on a fresh machine then
# configures the build as every later run will, so a later run never rebuilds because the
# compiler launcher changed.
# CCACHE_BASEDIR makes the checkout's paths relative in what ccache hashes, so build-deb (and a
# fresh clone elsewhere) reuses build/'s objects; CCACHE_NOHASHDIR does the same for the
# build directory of a -g build (build-asan), whose objects then name their sources relative to it.
use_ccache_if_installed() {
  if command -v ccache >/dev/null; then
    common_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$here}
    export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
  fi
}

# The vendor JSON event catalogs (the kernel's tools/perf/pmu-events) of the perf releases
# pmucat follows: linux 7.3's (the default catalog; the whole directory, whose generator scripts
# the build runs), 6.12's and 6.1's (their arch/ trees: --perf-semantics=6.12 and 6.1, the
# differential tests), extracted once per checkout from the linux-source tarballs into .cache/
# (not committed: another project's data) and shared by every build directory. linux 7.2's
# (--perf-semantics=7.2) only where its tarball is already here: `scripts/perf-oracle-7.sh 7.2`
# fetches it from sid with the perf 7.2 it builds; nothing else does.
prepare_events() {
  local version option part
  for version in 7.3 7.2 6.12 6.1; do
    local tarball
    tarball=$(kernel_tarball "$version")
    [ -n "$tarball" ] || continue
    case "$version" in
      7.3) part=pmu-events option=-DPMUCAT_PMU_EVENTS_SOURCE_7_3 ;;
      7.2) part=pmu-events option=-DPMUCAT_PMU_EVENTS_SOURCE_7_2 ;;
      6.12) part=arch option=-DPMUCAT_PMU_EVENTS_DIR_6_12 ;;
      6.1) part=arch option=-DPMUCAT_PMU_EVENTS_DIR_6_1 ;;
    esac
    cmake "-DTARBALL=$tarball" "-DDEST=$here/.cache/pmu-events/linux-$version" "-DPART=$part" \
      -P cmake/PmucatExtractEvents.cmake
    common_args+=("$option=$here/.cache/pmu-events/linux-$version/$part")
  done
}

# The later oracles of the differential tests (perf 6.12 and perf 7.3), each built once per
# checkout (~2.5 and ~6 min). Without one its `.perf<release>` tests skip with a message; a failed
# build says so and goes on. (perf 7.2, `scripts/perf-oracle-7.sh 7.2`, is built on request only.)
build_perf_oracle() {
  bash scripts/perf-oracle-6.12.sh >/dev/null ||
    echo "dev.sh: perf 6.12 was not built: the .perf6.12 differential tests will skip" >&2
  bash scripts/perf-oracle-7.sh 7.3 >/dev/null ||
    echo "dev.sh: perf 7.3 was not built: the .perf7.3 differential tests will skip" >&2
}

# Configures (the same way for every job, so one job's objects serve the next) and builds the
# given targets, or everything.
configure_and_build() {
  # shellcheck disable=SC2086
  cmake -S . -B "$build_dir" "${common_args[@]}" -DCMAKE_BUILD_TYPE="$build_type" \
    -DPMUCAT_BUILD_BENCH=ON ${CMAKE_ARGS:-}
  local targets=()
  for target in "$@"; do targets+=(--target "$target"); done
  cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
}

case "${1:-}" in
  main)
    install_missing
    use_ccache_if_installed
    prepare_events
    # Only what the job runs: the tool and the vendor event index it reads.
    configure_and_build pmuls vendor_index
    "$build_dir/cli/pmuls/pmuls" --sysfs fixtures/sysfs/intel-spr --pmu cpu
    ;;
  test)
    install_missing
    use_ccache_if_installed
    prepare_events
    configure_and_build
    build_perf_oracle
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
    ;;
  unit)
    install_missing
    use_ccache_if_installed
    prepare_events
    configure_and_build
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" -LE differential
    ;;
  build)
    install_missing
    use_ccache_if_installed
    prepare_events
    configure_and_build
    ;;
  asan)
    install_missing
    use_ccache_if_installed
    prepare_events
    build_perf_oracle
    # clang 14, so the project is built warning-free by both compilers, and so the same objects
    # carry libFuzzer's coverage hooks (-fsanitize=fuzzer-no-link): this one build runs the
    # suite under the sanitizers and gives the fuzz targets .ci/run runs. -O1 without full debug
    # info keeps it fast; -g1 still gives line numbers. No Python module: an extension built with
    # ASan cannot be loaded by an uninstrumented interpreter (the C API and its tests are built).
    build_dir=${ASAN_BUILD_DIR:-build-asan}
    # A build-asan configured by GCC (before the switch to clang) is configured afresh.
    if [ -f "$build_dir/CMakeCache.txt" ] &&
      ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' "$build_dir/CMakeCache.txt"; then
      rm -f "$build_dir/CMakeCache.txt"
    fi
    # shellcheck disable=SC2086
    CC=clang CXX=clang++ cmake -S . -B "$build_dir" "${common_args[@]}" -DCMAKE_BUILD_TYPE=Debug \
      "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DPMUCAT_SANITIZE=address,undefined \
      -DPMUCAT_BUILD_FUZZ=ON -DPMUCAT_BUILD_BENCH=OFF -DPMUCAT_PYTHON=OFF ${CMAKE_ARGS:-}
    cmake --build "$build_dir" -j "$jobs"
    # Leaks fail the run too; every report stops the process. The differential tests' cost is the
    # perf processes, not our code, so they compare fewer random specs and events here.
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
      UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
      PMUCAT_DIFF_COUNT=${PMUCAT_DIFF_COUNT:-20} \
      PMUCAT_VENDOR_DIFF_COUNT=${PMUCAT_VENDOR_DIFF_COUNT:-4} \
      ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
    ;;
  deb)
    install_missing
    use_ccache_if_installed
    prepare_events
    build_dir=${DEB_BUILD_DIR:-build-deb}
    # The prefix /usr (multiarch lib/, python3/dist-packages), no tests; the compile flags are
    # build/'s, so ccache serves its objects. The tools link dynamically here (Debian does not
    # ship static executables), with RELRO and immediate binding as lintian expects.
    # shellcheck disable=SC2086
    cmake -S . -B "$build_dir" "${common_args[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_INSTALL_PREFIX=/usr -DPMUCAT_PACKAGE_DEB=ON -DPMUCAT_BUILD_TESTS=OFF \
      -DPMUCAT_BUILD_BENCH=OFF -DPMUCAT_STATIC_RUNTIME=OFF \
      "-DCMAKE_EXE_LINKER_FLAGS=-Wl,-z,relro,-z,now" \
      "-DCMAKE_SHARED_LINKER_FLAGS=-Wl,-z,relro,-z,now" \
      "-DCMAKE_MODULE_LINKER_FLAGS=-Wl,-z,relro,-z,now" ${CMAKE_ARGS:-}
    cmake --build "$build_dir" -j "$jobs"
    rm -f "$build_dir"/*.deb
    (cd "$build_dir" && cpack -G DEB >cpack.log) || { cat "$build_dir/cpack.log" >&2; exit 1; }
    bash scripts/check-debs.sh "$build_dir"
    ;;
  *)
    awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0" >&2
    exit 2
    ;;
esac
