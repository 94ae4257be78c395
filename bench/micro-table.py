#!/usr/bin/env python3
"""Prints a markdown table of a pmucat_bench JSON export (bench/run-micro --json FILE): per
benchmark the median real and CPU time over the repetitions, allocations per iteration and
throughput where the benchmark reports them.

Usage: bench/micro-table.py FILE.json
"""

import json
import sys


def human_time(value, unit):
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[unit]
    ns = value * scale
    if ns < 1e3:
        return f"{ns:.1f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns / 1e6:.2f} ms"


def human_rate(value, unit=""):
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= limit:
            return f"{value / limit:.2f} {suffix}{unit}/s"
    return f"{value:.0f} {unit}/s"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as handle:
        data = json.load(handle)
    rows = [b for b in data["benchmarks"]
            if b.get("aggregate_name", "median") == "median" and "error_occurred" not in b]
    print(f"Tree: {data['context'].get('pmucat_tree', '?')}")
    print()
    print("| benchmark | real (median) | CPU (median) | allocs/iter | throughput |")
    print("|---|---|---|---|---|")
    for b in rows:
        name = b.get("run_name", b["name"])
        unit = b.get("time_unit", "ns")
        allocs = b.get("allocs_per_iter")
        rate = []
        if "items_per_second" in b:
            rate.append(human_rate(b["items_per_second"], "items"))
        if "bytes_per_second" in b:
            rate.append(human_rate(b["bytes_per_second"], "B"))
        print(f"| `{name}` | {human_time(b['real_time'], unit)} | "
              f"{human_time(b['cpu_time'], unit)} | "
              f"{'–' if allocs is None else f'{allocs:.2f}'} | {', '.join(rate) or '–'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
