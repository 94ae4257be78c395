#!/usr/bin/env python3
"""Turns the hyperfine exports of one bench/run-cli run into the results table (markdown), a
CSV and the data file for the scaling plot.

Usage: bench/report.py RESULTS_DIR FACTOR...
Wall times are medians of the runs; CPU times (user+system) are hyperfine's means, as its export
has no per-run CPU times. Reads RESULTS_DIR/f<factor>-<command>.json (hyperfine --export-json) and
RESULTS_DIR/f<factor>-meta.txt (`key value` lines: pmus, files, bytes, rss_kib); writes
RESULTS_DIR/results.md, results.csv and scaling.dat, and prints results.md.
"""

import json
import os
import statistics
import sys

# (key, label) in table order; perf rows are reported net of the namespace entry as well.
COMMANDS = [
    ("pmuencode", "`pmuencode 'cpu/event=0x3c,umask=0x1,inv,cmask=3/'`"),
    ("floor_one", "floor-one-event (type + 4 format files)"),
    ("perf_stat", "`perf stat -e 'cpu/event=0x3c,umask=0x1,inv,cmask=3/' true` (net)"),
    ("pmuls_json", "`pmuls --json` (default: a thread per CPU, here 2)"),
    ("pmuls_json_j1", "`pmuls --json --jobs 1`"),
    ("floor_full", "floor-full (every file once)"),
    ("floor_list", "floor-list (every directory listed, no reads)"),
    ("perf_list", "`perf list pmu` (net)"),
    ("pmucheck_j1", "`pmucheck --jobs 1`"),
    ("pmucheck_j2", "`pmucheck --jobs 2`"),
    ("ns_entry", "namespace entry (`in-sysfs-ns DIR true`), subtracted above"),
    ("perf_stat_gross", "`perf stat ...` incl. namespace entry"),
    ("perf_list_gross", "`perf list pmu` incl. namespace entry"),
]
PERF_NET = {"perf_stat": "perf_stat_gross", "perf_list": "perf_list_gross"}


def load_medians(results, factor):
    medians = {}
    for key, _ in COMMANDS:
        source = PERF_NET.get(key, key)
        if key in PERF_NET:
            continue
        path = os.path.join(results, f"f{factor}-{source}.json")
        if not os.path.exists(path):
            continue
        with open(path) as handle:
            result = json.load(handle)["results"][0]
        times = result["times"]
        medians[key] = statistics.median(times) * 1000.0
        medians[key + "@cpu"] = (result["user"] + result["system"]) * 1000.0
    for net, gross in PERF_NET.items():
        for suffix in ("", "@cpu"):
            if gross + suffix in medians and "ns_entry" + suffix in medians:
                medians[net + suffix] = max(
                    medians[gross + suffix] - medians["ns_entry" + suffix], 0.0)
    return medians


def load_meta(results, factor):
    meta = {}
    path = os.path.join(results, f"f{factor}-meta.txt")
    if os.path.exists(path):
        with open(path) as handle:
            for line in handle:
                key, _, value = line.strip().partition(" ")
                if key:
                    meta[key] = value
    return meta


def fmt_ms(value):
    if value is None:
        return "–"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:,.0f}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    results, factors = sys.argv[1], sys.argv[2:]
    medians = {f: load_medians(results, f) for f in factors}
    metas = {f: load_meta(results, f) for f in factors}
    lines = []
    header = " | ".join(f"{f}x" for f in factors)
    lines.append(f"| command (whole process, median ms) | {header} |")
    lines.append("|---|" + "---|" * len(factors))
    lines.append("| tree: PMUs / files | " + " | ".join(
        f"{metas[f].get('pmus', '?')} / {metas[f].get('files', '?')}" for f in factors) + " |")
    for key, label in COMMANDS:
        if not any(key in medians[f] for f in factors):
            continue
        lines.append(f"| {label} | " + " | ".join(fmt_ms(medians[f].get(key)) for f in factors)
                     + " |")
    lines.append("| `pmuls --json` peak RSS (MiB) | " + " | ".join(
        f"{int(metas[f]['rss_kib']) / 1024:.1f}" if "rss_kib" in metas[f] else "–"
        for f in factors) + " |")

    # CPU time is less disturbed than wall time when other work shares the machine.
    lines.append("")
    lines.append(f"| command (mean user+system CPU ms) | {header} |")
    lines.append("|---|" + "---|" * len(factors))
    for key, label in COMMANDS:
        if not any(key + "@cpu" in medians[f] for f in factors):
            continue
        lines.append(f"| {label} | " + " | ".join(
            fmt_ms(medians[f].get(key + "@cpu")) for f in factors) + " |")

    first, last = factors[0], factors[-1]
    m1, mN = medians[first], medians[last]
    rss_last = int(metas[last]["rss_kib"]) / 1024 if "rss_kib" in metas[last] else None
    targets = [
        (f"perf stat (net) / pmuencode, {first}x", ratio(m1.get("perf_stat"), m1.get("pmuencode")),
         ">= 50", lambda r: r >= 50),
        (f"pmuencode / one-event floor, {first}x", ratio(m1.get("pmuencode"), m1.get("floor_one")),
         "<= 2", lambda r: r <= 2),
        (f"pmuencode {last}x / {first}x", ratio(mN.get("pmuencode"), m1.get("pmuencode")),
         "<= 1.3", lambda r: r <= 1.3),
        (f"pmuls --json / full floor, {first}x", ratio(m1.get("pmuls_json"), m1.get("floor_full")),
         "<= 1.3", lambda r: r <= 1.3),
        (f"pmuls --json / full floor, {last}x", ratio(mN.get("pmuls_json"), mN.get("floor_full")),
         "<= 1.3", lambda r: r <= 1.3),
        (f"perf list pmu (net) / pmuls --json, {first}x",
         ratio(m1.get("perf_list"), m1.get("pmuls_json")), ">= 5", lambda r: r >= 5),
        (f"perf list pmu (net) / pmuls --json, {last}x",
         ratio(mN.get("perf_list"), mN.get("pmuls_json")), ">= 5", lambda r: r >= 5),
        # The same on one thread, for a like-for-like view (perf list is single-threaded).
        (f"pmuls --json --jobs 1 / full floor, {last}x",
         ratio(mN.get("pmuls_json_j1"), mN.get("floor_full")), "<= 1.3", lambda r: r <= 1.3),
        (f"perf list pmu (net) / pmuls --json --jobs 1, {first}x",
         ratio(m1.get("perf_list"), m1.get("pmuls_json_j1")), ">= 5", lambda r: r >= 5),
        (f"perf list pmu (net) / pmuls --json --jobs 1, {last}x",
         ratio(mN.get("perf_list"), mN.get("pmuls_json_j1")), ">= 5", lambda r: r >= 5),
        (f"pmucheck --jobs 1 / full floor, {last}x",
         ratio(mN.get("pmucheck_j1"), mN.get("floor_full")), "<= 1.5", lambda r: r <= 1.5),
        (f"pmucheck --jobs 2 / --jobs 1, {last}x",
         ratio(mN.get("pmucheck_j2"), mN.get("pmucheck_j1")), "< 1", lambda r: r < 1),
        (f"pmuls --json peak RSS, {last}x (MiB)", rss_last, "< 32", lambda r: r < 32),
    ]
    if first == last:  # one factor: the per-size rows would repeat the same comparison
        seen = set()
        targets = [t for t in targets if not (t[0] in seen or seen.add(t[0]))]
        targets = [t for t in targets if not t[0].startswith(f"pmuencode {last}x")]
    lines.append("")
    lines.append("| target (issue 7) | measured | goal | met |")
    lines.append("|---|---|---|---|")
    for name, value, goal, met in targets:
        shown = "–" if value is None else f"{value:.2f}"
        verdict = "–" if value is None else ("yes" if met(value) else "**no**")
        lines.append(f"| {name} | {shown} | {goal} | {verdict} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(results, "results.md"), "w") as out:
        out.write(text)

    with open(os.path.join(results, "results.csv"), "w") as out:
        out.write("factor,pmus,files,measure,ms_or_kib\n")
        for f in factors:
            for key, _ in COMMANDS:
                for suffix, column in (("", ""), ("@cpu", "_cpu")):
                    if key + suffix in medians[f]:
                        out.write(f"{f},{metas[f].get('pmus', '')},{metas[f].get('files', '')},"
                                  f"{key}{column},{medians[f][key + suffix]:.4f}\n")
            if "rss_kib" in metas[f]:
                out.write(f"{f},{metas[f].get('pmus', '')},{metas[f].get('files', '')},"
                          f"pmuls_json_rss_kib,{metas[f]['rss_kib']}\n")

    series = ["pmuencode", "pmuls_json", "pmucheck_j1", "pmucheck_j2", "perf_stat", "perf_list",
              "floor_one", "floor_full", "floor_list"]
    with open(os.path.join(results, "scaling.dat"), "w") as out:
        out.write("# files " + " ".join(series) + "\n")
        for f in factors:
            values = [f"{medians[f][k]:.4f}" if k in medians[f] else "NaN" for k in series]
            out.write(f"{metas[f].get('files', f)} " + " ".join(values) + "\n")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
