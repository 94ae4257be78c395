#!/usr/bin/env bash
# Differential test against quipper (google/perf_data_converter, the PerfDataProto reader and
# writer ChromeOS and perf_to_profile use), both directions on every file of the shared perf.data
# corpus (perf 3.4 ... 6.12, file and pipe mode):
#   ours -> quipper: `pmudata convert F ours.pb`; quipper reads it (PerfReader) and runs its
#                    PerfParser on it, which must count the same samples, mapped samples, MMAPs,
#                    COMMs, FORKs and EXITs as on F itself; quipper writes perf.data back from it;
#                    perf_to_profile turns it into the same pprof profile, byte for byte, as
#                    it makes of F itself (it sorts a perf.data's records by time but takes a
#                    proto's as they are: our events are in time order).
#   quipper -> ours: quipper converts F to .pb; `pmudata convert` turns that into perf.data.
# and `perf script` (with task and mmap events) of both perf.data files prints what it prints for
# F, line for line.
#
#   quipper_interop.sh PMUDATA SOURCE_DIR
#
# quipper is built once from ../shared/tools/quipper (next to the source tree, or
# $PMUCAT_SHARED_DIR) into SOURCE_DIR/.cache/quipper-build (3-4 minutes on 2 cores; rebuilt when
# its sources are newer). Exit 77 (ctest: skipped) when ../shared or quipper's build dependencies
# are missing; without perf the `perf script` comparisons are skipped with a message.
set -u
pmudata=$1
source_dir=$2
shared=${PMUCAT_SHARED_DIR:-$source_dir/../shared}
quipper_src=$shared/tools/quipper
corpus=$shared/perfdata-corpus
skip() {
  echo "SKIPPED: $*"
  exit 77
}
[ -f "$quipper_src/build.sh" ] || skip "no quipper sources at $quipper_src"
[ -d "$corpus" ] || skip "no perf.data corpus at $corpus"
command -v dpkg >/dev/null || skip "cannot check quipper's build dependencies (no dpkg)"
missing=()
for p in libprotobuf-dev protobuf-compiler libelf-dev libssl-dev zlib1g-dev libabsl-dev make g++; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] || skip "quipper's build dependencies are missing: ${missing[*]}"

out=$source_dir/.cache/quipper-build
mkdir -p "$source_dir/.cache"
(
  # One build at a time (parallel ctest runs, several checkouts sharing .cache).
  flock 9
  if [ ! -x "$out/qdriver" ] || [ -n "$(find "$quipper_src" -newer "$out/qdriver" -type f -print -quit)" ]; then
    echo "building quipper into $out (once)"
    JOBS=${JOBS:-2} bash "$quipper_src/build.sh" "$out" || exit 1
  fi
) 9>"$source_dir/.cache/quipper-build.lock" || {
  echo "FAILED: quipper did not build (see $out/build.log)"
  exit 1
}
qdriver=$out/qdriver

have_perf=1
command -v perf >/dev/null || have_perf=0
[ $have_perf = 1 ] || echo "NOTE: perf is not installed: the perf script comparisons are skipped"

# Optional: perf 7.3 (Debian trixie-backports' linux-perf, run from a trixie root by
# perf-in-root.sh) reads the perf.data we write from quipper's .pb as it reads the original.
# The root is $PMUCAT_PERF73_ROOT, else one of the usual places (perf-in-root.sh --setup DIR).
perf73_root=
if [ $have_perf = 1 ] && [ -f "$shared/tools/perf-in-root.sh" ]; then
  for r in ${PMUCAT_PERF73_ROOT:-} /var/tmp/perf73-root /var/cache/pmucat-ci/trixie; do
    if [ -x "$r/usr/bin/perf" ] && [ -d "$r/tmp" ] && [ -w "$r/tmp" ] &&
      PERF_ROOT=$r bash "$shared/tools/perf-in-root.sh" --version 2>/dev/null | grep -q '^perf version 7\.3'; then
      perf73_root=$r
      break
    fi
  done
fi
if [ -n "$perf73_root" ]; then
  echo "perf 7.3 from $perf73_root: its perf script is compared too"
else
  echo "NOTE: no trixie root with perf 7.3 (PMUCAT_PERF73_ROOT; perf-in-root.sh --setup DIR): its perf script comparison is skipped"
fi

work=$(mktemp -d)
perf73_dir=
if [ -n "$perf73_root" ]; then
  perf73_dir=$(mktemp -d "$perf73_root/tmp/pmucat-interop.XXXXXX")
fi
trap 'rm -rf "$work" ${perf73_dir:+"$perf73_dir"}' EXIT
failures=0
fail() {
  echo "FAIL $name: $*"
  failures=$((failures + 1))
}
script_of() {
  perf script -f -i "$1" --show-task-events --show-mmap-events 2>/dev/null
}
# The file is copied into the root, where perf 7.3 sees it; perf's exit status. Event modifiers
# are left out of the event names: perf 7.3 names the event of a pipe file without attr ids
# (perf.data.piped.no_attr_ids-4.14) from its attr ("cycles:H") where perf 6.1 and the file's
# EVENT_DESC say "cycles", which our file mode keeps.
script73_of() {
  cp "$1" "$perf73_dir/in.data" || return 1
  PERF_ROOT=$perf73_root bash "$shared/tools/perf-in-root.sh" script -f \
    -i "/tmp/${perf73_dir##*/}/in.data" --show-task-events --show-mmap-events 2>/dev/null |
    sed -E 's/ ([A-Za-z0-9_.-]+):[ukhHGIpPSD]+: / \1: /'
  return "${PIPESTATUS[0]}"
}
parser_counts() {  # the PerfParser line quipper's driver prints, without its tag
  grep -o 'PerfParser ok .*' "$1"
}

# check FILE [ours-only]: both directions on one perf.data. ours-only is for files quipper
# cannot read whole (perf record -z: it skips the COMPRESSED records, so its counts are 0 where
# our .pb, decompressed, has samples): quipper -> ours is left out and the parser must find
# samples in our .pb rather than match quipper's own counts.
check() {
  local f=$1 d
  name=$(basename "$f")
  d=$work/out.$name
  mkdir -p "$d"
  files=$((files + 1))
  if [ $have_perf = 1 ]; then
    script_of "$f" >"$d/orig.script"
    [ -s "$d/orig.script" ] || { fail "perf script prints nothing for the original"; return; }
  fi
  "$qdriver" read "$f" -p >"$d/orig.q" 2>"$d/orig.q.err" || { fail "quipper cannot read the original"; return; }

  # ours -> quipper
  if ! "$pmudata" convert "$f" "$d/ours.pb" 2>"$d/convert.err"; then
    fail "pmudata convert to .pb: $(head -1 "$d/convert.err")"
  elif ! "$qdriver" pbinfo "$d/ours.pb" >"$d/ours.q" 2>"$d/ours.q.err"; then
    fail "quipper rejects our .pb: $(grep -m1 -E 'FATAL|ERROR' "$d/ours.q.err")"
  elif [ "${2:-}" = ours-only ] && ! grep -q 'PerfParser ok samples=[1-9]' "$d/ours.q"; then
    fail "quipper's parser finds no sample in our .pb: $(parser_counts "$d/ours.q")"
  elif [ "${2:-}" != ours-only ] && [ "$(parser_counts "$d/ours.q")" != "$(parser_counts "$d/orig.q")" ]; then
    fail "quipper's parser counts differ on our .pb: $(parser_counts "$d/ours.q") vs $(parser_counts "$d/orig.q")"
  elif ! "$qdriver" pb2data "$d/ours.pb" "$d/ours.q.data" >"$d/pb2data.out" 2>"$d/pb2data.err"; then
    fail "quipper cannot write perf.data from our .pb: $(grep -m1 -E 'FATAL|ERROR' "$d/pb2data.err")"
  elif [ $have_perf = 1 ] && ! script_of "$d/ours.q.data" | cmp -s - "$d/orig.script"; then
    fail "perf script of quipper's perf.data from our .pb differs: $(script_of "$d/ours.q.data" | diff "$d/orig.script" - | grep -c '^[<>]') lines"
  elif ! "$out/perf_to_profile" -i "$d/ours.pb" -o "$d/ours.prof" -f >"$d/p2p.out" 2>&1; then
    fail "perf_to_profile rejects our .pb: $(grep -m1 -E 'FATAL|ERROR' "$d/p2p.out")"
  fi

  # quipper -> ours
  [ "${2:-}" = ours-only ] && return
  if ! "$qdriver" data2pb "$f" "$d/theirs.pb" >"$d/data2pb.out" 2>"$d/data2pb.err"; then
    fail "quipper cannot convert the original"
  elif ! "$pmudata" convert "$d/theirs.pb" "$d/theirs.data" 2>"$d/theirs.err"; then
    fail "pmudata rejects quipper's .pb: $(head -1 "$d/theirs.err")"
  elif [ $have_perf = 1 ] && ! script_of "$d/theirs.data" | cmp -s - "$d/orig.script"; then
    fail "perf script of our perf.data from quipper's .pb differs: $(script_of "$d/theirs.data" | diff "$d/orig.script" - | grep -c '^[<>]') lines"
  elif ! "$out/perf_to_profile" -i "$d/theirs.pb" -o "$d/theirs.prof" -f >/dev/null 2>&1; then
    fail "perf_to_profile rejects quipper's own .pb"
  elif ! "$out/perf_to_profile" -i "$f" -o "$d/direct.prof" -f >/dev/null 2>&1; then
    fail "perf_to_profile rejects the original"
  elif ! cmp -s "$d/ours.prof" "$d/direct.prof"; then
    # perf_to_profile sorts a perf.data's records by time, not a proto's: our .pb must hold them
    # in time order, as quipper's perf_converter writes its own.
    fail "perf_to_profile's profile of our .pb differs from its profile of the original"
  elif [ -n "$perf73_root" ]; then
    script73_of "$d/theirs.data" >"$d/theirs.script73"
    local ours73=$?
    if script73_of "$f" >"$d/orig.script73"; then
      cmp -s "$d/theirs.script73" "$d/orig.script73" ||
        fail "perf 7.3's perf script of our perf.data from quipper's .pb differs: $(diff "$d/orig.script73" "$d/theirs.script73" | grep -c '^[<>]') lines"
    elif [ $ours73 != 0 ]; then
      # perf 7.3 refuses some old pipe files itself (an unaligned CPU_MAP record of perf 4.x):
      # then it must at least read ours whole.
      fail "perf 7.3 cannot read our perf.data from quipper's .pb (exit $ours73)"
    else
      echo "NOTE $name: perf 7.3 refuses the original; it reads our perf.data from quipper's .pb"
    fi
  fi
}

files=0
for f in "$corpus"/perf.data*; do check "$f"; done
[ $files -gt 0 ] || skip "the corpus at $corpus holds no perf.data files"
corpus_files=$files

# Recordings made here (where perf record is permitted): software events, tracepoints, pipe
# mode, and -z (quipper keeps no COMPRESSED record, so only ours -> quipper).
recorded=0
if [ $have_perf = 1 ]; then
  rec() {  # rec NAME PERF-RECORD-OPTIONS... [-- COMMAND...] (default command: true)
    local out=$work/$1
    shift
    local args=("$@")
    [[ " $* " == *" -- "* ]] || args+=(-- true)
    if perf record -q -o "$out" "${args[@]}" >/dev/null 2>&1 && [ -s "$out" ]; then
      recorded=$((recorded + 1))
      return 0
    fi
    echo "NOTE: perf record $* is not permitted here: left out"
    return 1
  }
  rec sw.data -e cpu-clock,page-faults -c 1000 && check "$work/sw.data"
  if rec tp.data -e sched:sched_process_exec,sched:sched_process_exit; then
    check "$work/tp.data"
    # Pipe mode carries TRACING_DATA as perf writes it there: a HEADER_TRACING_DATA record (u32
    # size, 4 pad bytes, the data after it). quipper is left out: it reads no pad, and refuses
    # perf's own pipe-mode tracepoint recordings the same way.
    name=tp.data-to-pipe
    if ! "$pmudata" convert --to pipe "$work/tp.data" "$work/tp.pipe" 2>"$work/tp.pipe.err"; then
      fail "pmudata convert --to pipe: $(head -1 "$work/tp.pipe.err")"
    elif ! script_of "$work/tp.pipe" | cmp -s - "$work/out.tp.data/orig.script"; then
      fail "perf script of our pipe-mode rewrite differs from the original's"
    # Its .pb gives quipper the tracing data (tracing_data), which quipper writes back.
    elif ! "$pmudata" convert "$work/tp.pipe" "$work/tp.pipe.pb" 2>"$work/tp.pipe.err" ||
      ! "$qdriver" pb2data "$work/tp.pipe.pb" "$work/tp.pipe.q.data" >/dev/null 2>&1; then
      fail "quipper cannot write perf.data from our .pb of the pipe-mode rewrite"
    elif ! script_of "$work/tp.pipe.q.data" | cmp -s - "$work/out.tp.data/orig.script"; then
      fail "perf script of quipper's perf.data from our .pb of the pipe-mode rewrite differs"
    fi
  fi
  rec z.data -z -e page-faults -c 1 && check "$work/z.data" ours-only
  # Processes started in a loop: their samples, FORKs and MMAPs come from both CPUs' buffers, so
  # file order and time order differ (what perf_to_profile's profile of our .pb must survive).
  rec forks.data -e page-faults -c 1 -g -- bash -c \
    'for i in $(seq 30); do ls / >/dev/null; sed -n 1p /etc/hostname >/dev/null; done' &&
    check "$work/forks.data"
  if perf record -q -o - -e page-faults -c 1 -- true >"$work/pipe.data" 2>/dev/null &&
    [ -s "$work/pipe.data" ]; then
    recorded=$((recorded + 1))
    check "$work/pipe.data"
  fi
fi
echo "$corpus_files corpus files and $recorded recordings with quipper: $failures failures"
[ $failures -eq 0 ]
