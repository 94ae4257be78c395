#!/usr/bin/env python3
"""Generates a synthetic sysfs PMU tree shaped like a two-socket Sapphire Rapids server, for
benchmarks.

Usage: bench/gen-tree.py --factor N [--seed S] OUT_DIR

The tree is laid out like fixtures/sysfs/<vendor>: OUT_DIR/devices/<pmu>/... holds the PMU
directories and OUT_DIR/bus/event_source/devices/<pmu> is a relative symlink to each of them.
Factor 1 is the baseline machine (about 130 PMUs, about 2,600 files); the factor multiplies the
number of instances of every uncore PMU type (10 gives about 1,300 PMUs), everything else stays.
The same factor and seed always give the same tree, byte for byte. The seed moves what differs
between real boots (dynamic PMU type numbers follow driver probe order, runtime-PM counters),
so benchmarks can check that results do not depend on one particular layout.

Every PMU directory also carries the driver-core entries a real one has (`uevent` and the
runtime-PM `power/` directory): a tool that scans everything pays for them, a lazy one does not.
The content is written from the driver facts in the project's reference notes.
"""

import argparse
import os
import random
import sys

SOCKET_LEADERS = "0,56"  # 2 sockets x 56 cores, SMT on: CPUs 0-223
ONLINE_CPUS = "0-223"

# Uncore PMU types: name, instances at factor 1, format set, sysfs events, alias type id.
SPR_RAW = {"event": "config:0-7", "umask": "config:8-15,32-55", "edge": "config:18",
           "inv": "config:23", "thresh": "config:24-31"}
CHA = {"event": "config:0-7", "umask": "config:8-15,32-63", "tid_en": "config:16",
       "edge": "config:18", "inv": "config:23", "thresh": "config:24-31",
       "filter_tid": "config1:0-9"}
IIO = {"event": "config:0-7", "umask": "config:8-15", "edge": "config:18", "inv": "config:23",
       "thresh": "config:24-35", "ch_mask": "config:36-47", "fc_mask": "config:48-50"}
CXLCM = dict(SPR_RAW, port_en="config:32-35")
FREE_RUNNING = {"event": "config:0-7", "umask": "config:8-15"}

MIB_CAS = ("MiB", "6.103515625e-5")
MIB_BW = ("MiB", "3.814697266e-6")


def imc_events():
    return [("clockticks", "event=0x01,umask=0x00", None),
            ("cas_count_read", "event=0x05,umask=0xcf", MIB_CAS),
            ("cas_count_write", "event=0x05,umask=0xf0", MIB_CAS)]


def iio_free_running_events():
    events = [("ioclk", "event=0xff,umask=0x10", None)]
    events += [(f"bw_in_port{p}", f"event=0xff,umask=0x{0x20 + p:x}", MIB_BW) for p in range(8)]
    events += [(f"bw_out_port{p}", f"event=0xff,umask=0x{0x30 + p:x}", MIB_BW) for p in range(8)]
    return events


def imc_free_running_events():
    return [("dclk", "event=0xff,umask=0x10", None),
            ("rpq_cycles", "event=0xff,umask=0x20", None),
            ("wpq_cycles", "event=0xff,umask=0x21", None),
            ("read", "event=0xff,umask=0x20", MIB_CAS),
            ("write", "event=0xff,umask=0x21", MIB_CAS)]


UNCORE_TYPES = [
    # name, instances at 1x, formats, events, alias type id
    ("cha", 40, CHA, list, 0),
    ("iio", 12, IIO, list, 1),
    ("irp", 12, SPR_RAW, list, 2),
    ("m2pcie", 12, SPR_RAW, list, 3),
    ("pcu", 1, SPR_RAW, list, 4),
    ("imc", 8, SPR_RAW, imc_events, 6),
    ("m2m", 4, SPR_RAW, list, 7),
    ("upi", 4, SPR_RAW, list, 8),
    ("m3upi", 4, SPR_RAW, list, 9),
    ("mdf", 4, SPR_RAW, list, 10),
    ("cxlcm", 4, CXLCM, list, 12),
    ("cxldp", 4, SPR_RAW, list, 13),
    ("ubox", 1, SPR_RAW, list, 5),
    ("iio_free_running", 12, FREE_RUNNING, iio_free_running_events, 1),
    ("imc_free_running", 2, FREE_RUNNING, imc_free_running_events, 6),
]


def x86_generic(event, umask=None):
    """The printf style of the x86 generic events: event=0x%02x[,umask=0x%02x]."""
    return f"event=0x{event:02x}" + ("" if umask is None else f",umask=0x{umask:02x}")


class Tree:
    def __init__(self, rng):
        self.rng = rng
        self.pmus = {}  # name -> {relative path: text}

    def pmu(self, name, type_id):
        files = {"type": f"{type_id}\n", "uevent": "", "perf_event_mux_interval_ms": "4\n"}
        # Runtime-PM attributes the driver core adds to every device.
        files.update({
            "power/control": "auto\n",
            "power/runtime_active_time": "0\n",
            "power/runtime_status": "unsupported\n",
            "power/runtime_suspended_time": f"{self.rng.randrange(1 << 20)}\n",
        })
        self.pmus[name] = files
        return files


def add_formats(files, formats):
    for term, bits in formats.items():
        files[f"format/{term}"] = f"{bits}\n"


def add_event(files, name, terms, unit_scale=None, snapshot=False, per_pkg=False):
    files[f"events/{name}"] = f"{terms}\n"
    if unit_scale is not None:
        files[f"events/{name}.unit"] = f"{unit_scale[0]}\n"
        files[f"events/{name}.scale"] = f"{unit_scale[1]}\n"
    if snapshot:
        files[f"events/{name}.snapshot"] = "1\n"
    if per_pkg:
        files[f"events/{name}.per-pkg"] = "1\n"


def add_core_pmu(tree):
    cpu = tree.pmu("cpu", 4)
    add_formats(cpu, {"event": "config:0-7", "umask": "config:8-15", "edge": "config:18",
                      "pc": "config:19", "inv": "config:23", "cmask": "config:24-31",
                      "in_tx": "config:32", "in_tx_cp": "config:33",
                      "offcore_rsp": "config1:0-63", "ldlat": "config1:0-15",
                      "frontend": "config1:0-23"})
    generic = {"branch-instructions": (0xc4,), "branch-misses": (0xc5,),
               "bus-cycles": (0x3c, 0x01), "cache-misses": (0x2e, 0x41),
               "cache-references": (0x2e, 0x4f), "cpu-cycles": (0x3c,), "instructions": (0xc0,),
               "ref-cycles": (0x00, 0x03)}
    for name, codes in generic.items():
        add_event(cpu, name, x86_generic(*codes))
    add_event(cpu, "mem-loads", "event=0xcd,umask=0x1,ldlat=3")
    add_event(cpu, "mem-loads-ldlat", "event=0xcd,umask=0x1,ldlat=?")
    add_event(cpu, "mem-stores", "event=0xcd,umask=0x2")
    add_event(cpu, "mem-loads-aux", "event=0x03,umask=0x82")
    add_event(cpu, "offcore-response", "event=0xb7,umask=0x1,offcore_rsp=?")
    add_event(cpu, "frontend-retired", "event=0xc6,umask=0x1,frontend=?")
    add_event(cpu, "slots", "event=0x00,umask=0x4")
    topdown = ["retiring", "bad-spec", "fe-bound", "be-bound", "heavy-ops", "br-mispredict",
               "fetch-lat", "mem-bound"]
    for index, name in enumerate(topdown):
        add_event(cpu, f"topdown-{name}", f"event=0x00,umask=0x{0x80 + index:x}")
    for prefix, code in (("tx", 0xc9), ("el", 0xc8)):
        for index, name in enumerate(("start", "commit", "abort")):
            add_event(cpu, f"{prefix}-{name}", f"event=0x{code:x},umask=0x{1 << index:x}")
    add_event(cpu, "tx-conflict", "event=0x54,umask=0x1")
    add_event(cpu, "tx-capacity-read", "event=0x54,umask=0x80")
    add_event(cpu, "tx-capacity-write", "event=0x54,umask=0x2")
    add_event(cpu, "el-conflict", "event=0x54,umask=0x1")
    add_event(cpu, "el-capacity", "event=0x54,umask=0x2")
    add_event(cpu, "cycles-t", "event=0x3c,in_tx=1")
    add_event(cpu, "cycles-ct", "event=0x3c,in_tx=1,in_tx_cp=1")
    cpu["caps/max_precise"] = "3\n"
    cpu["caps/branches"] = "32\n"
    cpu["caps/pmu_name"] = "sapphire_rapids\n"
    cpu["rdpmc"] = "1\n"
    cpu["freeze_on_smi"] = "0\n"


def add_platform_pmus(tree, next_type):
    cstate_core = tree.pmu("cstate_core", next_type())
    add_formats(cstate_core, {"event": "config:0-63"})
    cstate_core["cpumask"] = f"{ONLINE_CPUS}\n"
    add_event(cstate_core, "c1-residency", "event=0x00")
    add_event(cstate_core, "c6-residency", "event=0x02")

    cstate_pkg = tree.pmu("cstate_pkg", next_type())
    add_formats(cstate_pkg, {"event": "config:0-63"})
    cstate_pkg["cpumask"] = f"{SOCKET_LEADERS}\n"
    add_event(cstate_pkg, "c2-residency", "event=0x00")
    add_event(cstate_pkg, "c6-residency", "event=0x02")

    power = tree.pmu("power", next_type())
    add_formats(power, {"event": "config:0-7"})
    power["cpumask"] = f"{SOCKET_LEADERS}\n"
    joules = ("Joules", "2.3283064365386962890625e-10")
    for name, code in (("energy-cores", 0x01), ("energy-pkg", 0x02), ("energy-ram", 0x03),
                       ("energy-psys", 0x05)):
        add_event(power, name, f"event=0x{code:02x}", joules)

    msr = tree.pmu("msr", next_type())
    add_formats(msr, {"event": "config:0-63"})
    for index, name in enumerate(("tsc", "aperf", "mperf", "pperf", "smi")):
        add_event(msr, name, f"event=0x{index:02x}")
    msr["events/cpu_thermal_margin"] = "event=0x07\n"
    msr["events/cpu_thermal_margin.unit"] = "C\n"
    msr["events/cpu_thermal_margin.snapshot"] = "1\n"

    pt = tree.pmu("intel_pt", next_type())
    add_formats(pt, {"pt": "config:0", "cyc": "config:1", "pwr_evt": "config:4",
                     "fup_on_ptw": "config:5", "mtc": "config:9", "tsc": "config:10",
                     "noretcomp": "config:11", "ptw": "config:12", "branch": "config:13",
                     "mtc_period": "config:14-17", "cyc_thresh": "config:19-22",
                     "psb_period": "config:24-27", "event": "config:31", "notnt": "config:55"})
    caps = {"cr3_filtering": "1", "psb_cyc": "1", "ip_filtering": "1", "mtc": "1",
            "ptwrite": "1", "power_event_trace": "1", "event_trace": "0", "tnt_disable": "0",
            "topa_output": "1", "topa_multiple_entries": "1", "single_range_output": "1",
            "output_subsys": "0", "payloads_lip": "0", "num_address_ranges": "2",
            "mtc_periods": "249", "cycle_thresholds": "3fff", "psb_periods": "3f"}
    for name, value in caps.items():
        pt[f"caps/{name}"] = f"{value}\n"
    pt["nr_addr_filters"] = "2\n"
    pt["max_nonturbo_ratio"] = "20\n"
    pt["tsc_art_ratio"] = "104:2\n"

    kprobe = tree.pmu("kprobe", next_type())
    add_formats(kprobe, {"retprobe": "config:0"})
    uprobe = tree.pmu("uprobe", next_type())
    add_formats(uprobe, {"retprobe": "config:0", "ref_ctr_offset": "config:32-63"})


def add_uncore_pmus(tree, factor, next_type):
    boxes = []
    for name, base_count, formats, events, alias_id in UNCORE_TYPES:
        count = max(1, round(base_count * factor))
        for box in range(count):
            pmu_name = f"uncore_{name}" if count == 1 else f"uncore_{name}_{box}"
            boxes.append((pmu_name, box, formats, events, alias_id))
    # Uncore boxes register in PCI/MSR discovery order, which differs between boots.
    tree.rng.shuffle(boxes)
    for pmu_name, box, formats, events, alias_id in boxes:
        files = tree.pmu(pmu_name, next_type())
        add_formats(files, formats)
        files["cpumask"] = f"{SOCKET_LEADERS}\n"
        files["alias"] = f"uncore_type_{alias_id}_{box}\n"
        for event_name, terms, unit_scale in events():
            add_event(files, event_name, terms, unit_scale)


def build(factor, seed):
    tree = Tree(random.Random(seed))
    counter = iter(range(6, 1 << 30))

    def next_type():
        return next(counter)

    tree.pmu("software", 1)
    tree.pmu("tracepoint", 2)
    tree.pmu("breakpoint", 5)
    add_core_pmu(tree)
    add_platform_pmus(tree, next_type)
    add_uncore_pmus(tree, factor, next_type)
    return tree


def write(tree, root):
    files = 0
    size = 0
    links = os.path.join(root, "bus", "event_source", "devices")
    os.makedirs(links)
    for name in sorted(tree.pmus):
        base = os.path.join(root, "devices", name)
        for rel, text in sorted(tree.pmus[name].items()):
            path = os.path.join(base, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            data = text.encode()
            with open(path, "wb") as out:
                out.write(data)
            files += 1
            size += len(data)
        os.symlink(os.path.join("..", "..", "..", "devices", name), os.path.join(links, name))
    return files, size


def positive_number(text):
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"factor must be a positive number, got {text}")
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factor", type=positive_number, required=True,
                        help="multiplies the uncore instance counts; 1 = baseline tree")
    parser.add_argument("--seed", type=int, default=1, help="layout seed (default 1)")
    parser.add_argument("out_dir", metavar="OUT_DIR")
    args = parser.parse_args()

    if os.path.exists(args.out_dir) and (not os.path.isdir(args.out_dir)
                                         or os.listdir(args.out_dir)):
        print(f"gen-tree: {args.out_dir} exists and is not an empty directory; refusing",
              file=sys.stderr)
        return 2
    tree = build(args.factor, args.seed)
    files, size = write(tree, args.out_dir)
    print(f"gen-tree: factor {args.factor:g} seed {args.seed}: {len(tree.pmus)} PMUs, "
          f"{files} files, {size} bytes in {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
