#!/usr/bin/env bash
# pprof itself reads what `pmudata convert --to pprof` writes: every file of the shared perf.data
# corpus is converted, and `go tool pprof -raw` (Debian's golang-go) must print its samples,
# locations and mappings with exit 0 and the sample types we wrote.
#   pprof_go_readback.sh PMUDATA SOURCE_DIR
# Exit 77 (ctest: skipped) without go or without ../shared ($PMUCAT_SHARED_DIR).
set -u
pmudata=$1
source_dir=$2
corpus=${PMUCAT_SHARED_DIR:-$source_dir/../shared}/perfdata-corpus
command -v go >/dev/null || { echo "SKIPPED: go is not installed (apt-get install golang-go)"; exit 77; }
[ -d "$corpus" ] || { echo "SKIPPED: no perf.data corpus at $corpus"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# go keeps its caches under HOME; a private one leaves the user's alone.
export HOME=$work GOCACHE=$work/go-cache PPROF_TMPDIR=$work
failures=0 files=0
for f in "$corpus"/perf.data.*; do
  files=$((files + 1))
  name=$(basename "$f")
  if ! "$pmudata" convert --to pprof "$f" "$work/$name.pprof" 2>"$work/err"; then
    echo "FAILED: pmudata convert --to pprof $name: $(cat "$work/err")"
    failures=$((failures + 1))
    continue
  fi
  if ! go tool pprof -raw "$work/$name.pprof" >"$work/raw" 2>"$work/err"; then
    echo "FAILED: go tool pprof -raw $name: $(head -3 "$work/err")"
    failures=$((failures + 1))
    continue
  fi
  for section in Samples: Locations Mappings; do
    grep -q "^$section" "$work/raw" || { echo "FAILED: $name: pprof printed no $section"; failures=$((failures + 1)); }
  done
  grep -q '_sample/count .*_event/count\[dflt\]' "$work/raw" ||
    { echo "FAILED: $name: not the sample types we wrote"; failures=$((failures + 1)); }
done
echo "$files corpus files, $failures failure(s)"
[ "$failures" = 0 ]
