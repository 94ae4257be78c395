#!/usr/bin/env python3
"""Writes perf stat -a -A -I MS -j output (perf 6.1's JSON lines) for pmumetric's scaling
measurement: per interval, one line per CPU and event, then the metric line perf prints with
each CPU's first event, as `perf stat -a -A -I 100 -j -e cycles,instructions,... -M IPC` does.
The values are made up and deterministic.

    bench/gen-stat-intervals.py --lines 1000000 > stat.json
    /usr/bin/time -v build/cli/pmumetric/pmumetric --sysfs fixtures/sysfs/intel-spr \\
        --cpuid GenuineIntel-6-8F-8 -M tma_info_thread_ipc stat.json
"""
import argparse
import sys

EVENTS = ["cpu_clk_unhalted.thread", "inst_retired.any", "cpu_clk_unhalted.ref_tsc"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000, help="lines to write")
    parser.add_argument("--cpus", type=int, default=64, help="CPUs per interval")
    parser.add_argument("--interval-ms", type=int, default=100)
    args = parser.parse_args()
    out = sys.stdout
    written = 0
    interval = 0
    while written < args.lines:
        interval += 1
        stamp = interval * args.interval_ms / 1000 + 0.000191313
        for cpu in range(args.cpus):
            for k, event in enumerate(EVENTS):
                if written >= args.lines:
                    break
                value = 1_000_000 + (interval * 7919 + cpu * 104729 + k * 1299709) % 900_000
                runtime = 100_000_000 + cpu
                line = (f'{{"interval" : {stamp:.9f}, "cpu": "{cpu}", '
                        f'"counter-value" : "{value}.000000", "unit" : "", '
                        f'"event" : "{event}", "event-runtime" : {runtime}, '
                        f'"pcnt-running" : 100.00')
                if k == 1:
                    line += f', "metric-value" : "{value / 1_500_000:.2f}", "metric-unit" : "insn per cycle"'
                out.write(line + "}\n")
                written += 1


if __name__ == "__main__":
    main()
