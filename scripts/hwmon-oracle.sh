#!/usr/bin/env bash
# hwmon-oracle.sh - ask the real perf (7.2 / 7.3; perf 6.12 has no hwmon PMUs) how it models hwmon "PMUs",
# against a FAKE /sys/class/hwmon built inside a private mount namespace (needs root; the host
# mount table is not touched).
#
# Usage:
#   hwmon-oracle.sh [-d LAYOUT] [-t PMU_TREE] [-m MODE] PERF SPEC
#   hwmon-oracle.sh [-d LAYOUT] [-t PMU_TREE] -m raw PERF ARGS...
#     PERF      the perf binary (e.g. .cache/perf-7.3/perf)
#     SPEC      the -e argument (e.g. temp1, hwmon_k10temp/temp_tctl/)
#     -m MODE   stat   (default): perf stat -vv -e SPEC true
#               record           : perf record -vv -o /dev/null -e SPEC true
#               list             : perf list SPEC            (SPEC may be empty: '')
#               listj            : perf list -j SPEC
#               raw              : perf ARGS...               (anything else)
#     -d LAYOUT a directory whose entries are hwmon device directories: each entry E becomes
#               /sys/class/.devices/E and a SYMLINK /sys/class/hwmon/E -> ../.devices/E
#               (perf only takes symlinks). Entries of LAYOUT/_plain/ are copied as plain
#               directories into /sys/class/hwmon/ (perf skips those). Default: the built-in
#               layout below (hwmon0 = k10temp, hwmon1 = nvme).
#     -t TREE   fake PMU tree bind-mounted over /sys/bus/event_source/devices
#               (default fixtures/sysfs/intel-spr/devices of this checkout; '-' = leave the real one)
#   hwmon-oracle.sh --make-layout DIR    write the built-in layout into DIR and exit.
#   hwmon-oracle.sh --make-edge-layouts DIR
#                   write the edge-case layouts DIR/A .. DIR/F (use with -d DIR/X) and exit.
#
# Prints perf's raw stdout+stderr and then 'rc=N'.
set -u

make_layout() {
  local L=$1
  case $L in /|"") echo "refusing to use '$L'" >&2; return 2 ;; esac
  rm -rf -- "$L" && mkdir -p -- "$L" || return 2
  f() { mkdir -p -- "$(dirname -- "$L/$1")" && printf '%b' "$2" > "$L/$1"; }
  # hwmon0: an AMD k10temp-like device plus one of every sensor type
  f hwmon0/name 'k10temp\n'
  f hwmon0/temp1_input '45125\n';  f hwmon0/temp1_label 'Tctl\n'
  f hwmon0/temp1_max '70000\n';    f hwmon0/temp1_crit '100000\n'
  f hwmon0/temp1_crit_alarm '0\n'
  f hwmon0/temp2_input '40000\n'                         # no label
  f hwmon0/temp3_label 'Tccd9\n'                         # label only: no event
  f hwmon0/temp4_max '1000\n'                            # max only: no event
  f hwmon0/fan1_input '1200\n';    f hwmon0/fan1_min '300\n'
  f hwmon0/in0_input '1100\n';     f hwmon0/in0_label 'Vcore\n'
  f hwmon0/power1_input '12500000\n'; f hwmon0/power1_label 'PPT\n'
  f hwmon0/curr1_input '2500\n'
  f hwmon0/energy1_input '123456789\n'
  f hwmon0/humidity1_input '45000\n'
  f hwmon0/pwm1 '128\n'                                  # real pwm file has no _input
  f hwmon0/pwm2_input '64\n'
  f hwmon0/intrusion0_alarm '0\n'
  f hwmon0/intrusion1_input '1\n'
  f hwmon0/cpu0_vid '1200\n'
  f hwmon0/cpu1_input '900\n'
  f hwmon0/update_interval '1000\n'                      # not a hwmon sensor file
  # hwmon1: a second device with a clashing temp1
  f hwmon1/name 'nvme\n'
  f hwmon1/temp1_input '35000\n';  f hwmon1/temp1_label 'Composite\n'
}

# Edge-case layouts used in /tmp/hwmon-facts.md (A: PMU naming, B: alias/suffix matching,
# C: labels and numbers, D: empty/non-directory entries, E: type wrap-around, F: long names).
make_edge_layouts() {
  local R=$1
  case $R in /|"") echo "refusing to use '$R'" >&2; return 2 ;; esac
  rm -rf -- "$R" && mkdir -p -- "$R" || return 2
  f() { mkdir -p -- "$(dirname -- "$R/$1")" && printf '%b' "$2" > "$R/$1"; }
  f A/hwmon0/name 'K10Temp\n'; f A/hwmon0/temp1_input '1000\n'
  f A/hwmon1/name 'nct6775-isa 0290:a,b/c\td\n'; f A/hwmon1/temp1_input '2000\n'
  f A/hwmon2/temp1_input '3000\n'                                  # no name file
  f A/hwmon3/name 'dup\n'; f A/hwmon3/temp1_input '4000\n'
  f A/hwmon4/name 'dup\n'; f A/hwmon4/temp1_input '5000\n'; f A/hwmon4/fan1_input '55\n'
  f A/hwmon5/name ''; f A/hwmon5/temp1_input '6000\n'               # empty name file
  f A/hwmon65533/name 'big\n'; f A/hwmon65533/temp1_input '7000\n'
  f A/hwmon65534/name 'toobig\n'; f A/hwmon65534/temp1_input '8000\n'
  f A/hwmon4294967303/name 'wrap\n'; f A/hwmon4294967303/temp1_input '9000\n'
  f A/_plain/hwmon7/name 'plaindir\n'; f A/_plain/hwmon7/temp1_input '10000\n'  # not a symlink
  f A/hwmonx/name 'xname\n'; f A/hwmonx/temp1_input '11000\n'
  f A/hwmon8/name 'two\nlines\n'; f A/hwmon8/temp1_input '12000\n'
  f A/hwmon9/name 'nonl'; f A/hwmon9/temp1_input '13000\n'
  f B/hwmon1/name 'nvme\n'; f B/hwmon1/temp1_input '1000\n'
  f B/hwmon10/name 'nvme\n'; f B/hwmon10/temp1_input '2000\n'
  f B/hwmon11/name 'acpitz\n'; f B/hwmon11/temp1_input '3000\n'
  f B/hwmon2/name 'nvme_1\n'; f B/hwmon2/temp1_input '4000\n'
  f B/hwmon3/name 'coretemp\n'; f B/hwmon3/temp1_input '5000\n'
  local L=C/hwmon0
  f $L/name 'lab\n'
  f $L/temp1_input '1000\n'; f $L/temp1_label 'CPU Core 0\n'
  f $L/temp2_input '2000\n'; f $L/temp2_label 'a:b,c/d\te\n'
  f $L/temp3_input '3000\n'; f $L/temp3_label 'Package id-0\n'
  f $L/temp4_input '4000\n'; f $L/temp4_label '\n'
  f $L/temp5_input '5000\n'; f $L/temp5_label 'dupl\n'
  f $L/temp6_input '6000\n'; f $L/temp6_label 'dupl\n'
  f $L/temp7_input '7000\n'; f $L/temp7_label 'x.y=z\n'
  f $L/temp8_input '8000\n'; f $L/temp8_label "$(printf 'L%.0s' $(seq 1 140))\n"
  f $L/temp9_input '9000\n'; f $L/temp9_label 'two\nlines\n'
  f $L/temp_input '10000\n'; f $L/temp_label 'nonum\n'
  f $L/temp40000_input '11000\n'
  f $L/temp65537_input '12000\n'
  f $L/in10_input '1500\n'; f $L/in10_label 'Ü mlaut\n'
  f $L/fan2_input '100\n'; f $L/fan2_label 'Fan\n'
  f $L/fan3_input '300\n'; f $L/fan3_label 'temp\n'
  f $L/curr1_input '100\n'; f $L/curr1_alarm '0\n'; f $L/curr1_max_alarm '1\n'
  f $L/curr1_lcrit '7\n'; f $L/curr1_foo '9\n'; f $L/curr1_max 'abc\n'
  f $L/temp10_input 'junk\n'; f $L/temp11_input '-5000\n'; f $L/temp12_input '  42000  \n'
  mkdir -p -- "$R/$L/temp13_input"                                 # a directory
  ln -sf temp1_input "$R/$L/temp14_input"                          # a symlink
  f $L/energy2_input '99999999999999\n'
  f $L/power2_input '1234567\n'; f $L/power2_average '5\n'
  f D/hwmon0/name 'empty\n'; f D/hwmon0/update_interval '1\n'
  f D/hwmon1 'i am a file\n'                                       # symlink to a file
  f D/hwmon2/name 'ok\n'; f D/hwmon2/temp1_input '1000\n'
  f E/hwmon65536/name 'wrap0\n'; f E/hwmon65536/temp1_input '1000\n'
  f E/hwmon65539/name 'wrap3\n'; f E/hwmon65539/temp1_input '2000\n'
  f E/hwmon65535/name 'ffff\n'; f E/hwmon65535/temp1_input '2000\n'
  f E/hwmon2/name 'ok\n'; f E/hwmon2/temp1_input '3000\n'
  f E/myhwmon/name 'nonhwmonname\n'; f E/myhwmon/temp1_input '4000\n'
  f F/hwmon0/name "$(printf 'n%.0s' $(seq 1 80))\n"; f F/hwmon0/temp1_input '1000\n'
  f F/hwmon1/name 'a.b=c\n'; f F/hwmon1/temp1_input '1000\n'
}

if [ "${1:-}" = --make-edge-layouts ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --make-edge-layouts DIR" >&2; exit 2; }
  make_edge_layouts "$2"; exit $?
fi
if [ "${1:-}" = --make-layout ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --make-layout DIR" >&2; exit 2; }
  make_layout "$2"; exit $?
fi

layout="" tree="$(cd "$(dirname "$0")/.." && pwd)/fixtures/sysfs/intel-spr/devices" mode=stat
while getopts "d:t:m:" o; do
  case $o in
    d) layout=$OPTARG ;;
    t) tree=$OPTARG ;;
    m) mode=$OPTARG ;;
    *) sed -n '2,32p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,32p' "$0" >&2; exit 2; }
perf=$(readlink -f -- "$1"); shift

tmp=""
if [ -z "$layout" ]; then
  tmp=$(mktemp -d /tmp/hwmon-layout.XXXXXX) || exit 2
  trap 'rm -rf -- "$tmp"' EXIT
  layout=$tmp/layout
  make_layout "$layout" || exit 2
fi
layout=$(cd "$layout" && pwd) || exit 2
[ "$tree" = - ] || tree=$(cd "$tree" && pwd) || exit 2

case $mode in
  stat)   [ $# -eq 1 ] || exit 2; cmd=("$perf" stat -vv -e "$1" true) ;;
  record) [ $# -eq 1 ] || exit 2; cmd=("$perf" record -vv -o /dev/null -e "$1" true) ;;
  list)   if [ -n "${1:-}" ]; then cmd=("$perf" list "$1"); else cmd=("$perf" list); fi ;;
  listj)  if [ -n "${1:-}" ]; then cmd=("$perf" list -j "$1"); else cmd=("$perf" list -j); fi ;;
  raw)    cmd=("$perf" "$@") ;;
  *) echo "bad mode $mode" >&2; exit 2 ;;
esac

cd /tmp && timeout 60 unshare -m bash -c '
  set -e
  layout=$1 tree=$2; shift 2
  mount --make-rprivate / 2>/dev/null || true
  [ "$tree" = - ] || mount --bind "$tree" /sys/bus/event_source/devices
  mount -t tmpfs none /sys/class
  mkdir -p /sys/class/hwmon /sys/class/.devices
  for e in "$layout"/* "$layout"/.[!.]*; do
    [ -e "$e" ] || continue
    n=${e##*/}
    [ "$n" = _plain ] && continue
    cp -a -- "$e" /sys/class/.devices/
    ln -s "../.devices/$n" "/sys/class/hwmon/$n"
  done
  if [ -d "$layout/_plain" ]; then
    for e in "$layout"/_plain/*; do [ -e "$e" ] && cp -a -- "$e" /sys/class/hwmon/; done
  fi
  set +e
  "$@"
  echo "rc=$?"' bash "$layout" "$tree" "${cmd[@]}" 2>&1
