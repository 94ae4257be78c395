#!/usr/bin/env python3
"""Writes the vendor sysfs fixture trees under fixtures/sysfs/ (intel-spr, amd-zen4,
arm-neoverse, power9, intel-adl-hybrid, arm64-n1, intel-arl-hybrid, intel-cwf, amd-zen6,
arm-neoverse-v3).

The content is written from driver facts (bit positions, event codes, printf styles) collected in
the project's reference notes; no file is copied from any captured tree. Each tree is laid out
like sysfs: the PMU directories live in <tree>/devices/<pmu>/ and
<tree>/bus/event_source/devices/<pmu> is a relative symlink to them, so both the tree root and
the devices folder can be given to pmucat.

Usage: scripts/gen-fixtures.py [OUTPUT_DIR]   (default: fixtures/sysfs next to this script)
Re-running rewrites these trees and nothing else. A tree may also hold files outside its PMU
directories (arm64-n1: devices/system/cpu/cpuN/regs/identification/midr_el1, which perf reads for
the CPU identifier), written relative to the tree's root.
"""

import os
import shutil
import sys

TREES = ("intel-spr", "amd-zen4", "arm-neoverse", "power9", "intel-adl-hybrid", "arm64-n1",
         "intel-arl-hybrid", "intel-cwf", "amd-zen6", "arm-neoverse-v3")


class Tree:
    """Collects PMU directories for one tree and writes them out."""

    def __init__(self):
        self.pmus = {}  # name -> {relative path: bytes}
        self.extra = {}  # files outside the PMU directories: {path relative to the root: text}

    def pmu(self, name, type_, mux="4"):
        files = {"type": f"{type_}\n", "uevent": ""}
        if mux is not None:
            files["perf_event_mux_interval_ms"] = f"{mux}\n"
        self.pmus[name] = files
        return Pmu(files)

    def write(self, root):
        if os.path.isdir(root):
            shutil.rmtree(root)
        links = os.path.join(root, "bus", "event_source", "devices")
        os.makedirs(links)
        for name, files in sorted(self.pmus.items()):
            base = os.path.join(root, "devices", name)
            os.makedirs(base)
            for rel, content in sorted(files.items()):
                path = os.path.join(base, rel)
                if content is None:  # an empty directory
                    os.makedirs(path, exist_ok=True)
                    continue
                os.makedirs(os.path.dirname(path), exist_ok=True)
                data = content if isinstance(content, bytes) else content.encode()
                with open(path, "wb") as out:
                    out.write(data)
            os.symlink(os.path.join("..", "..", "..", "devices", name), os.path.join(links, name))
        for rel, content in sorted(self.extra.items()):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as out:
                out.write(content.encode())


class Pmu:
    """Adds files to one PMU directory; every kernel show() output ends with '\\n'."""

    def __init__(self, files):
        self.files = files

    def formats(self, **specs):
        for term, spec in specs.items():
            self.files[f"format/{term}"] = f"{spec}\n"
        return self

    def format(self, term, spec):  # for names that are not Python identifiers
        self.files[f"format/{term}"] = f"{spec}\n"
        return self

    def event(self, name, terms, unit=None, scale=None, snapshot=False, per_pkg=False):
        self.files[f"events/{name}"] = f"{terms}\n"
        if unit is not None:
            self.files[f"events/{name}.unit"] = f"{unit}\n"
        if scale is not None:
            self.files[f"events/{name}.scale"] = f"{scale}\n"
        if snapshot:
            self.files[f"events/{name}.snapshot"] = "1\n"
        if per_pkg:
            self.files[f"events/{name}.per-pkg"] = "1\n"
        return self

    def caps(self, **values):
        self.files["caps"] = None
        for name, value in values.items():
            self.files[f"caps/{name}"] = f"{value}\n"
        return self

    def attr(self, name, value):
        self.files[name] = value if isinstance(value, bytes) else f"{value}\n"
        return self


def fixed_pmus(tree, kprobe_type, uprobe_type):
    """software, tracepoint, breakpoint (fixed types), kprobe and uprobe (dynamic)."""
    tree.pmu("software", 1)
    tree.pmu("tracepoint", 2)
    tree.pmu("breakpoint", 5)
    tree.pmu("kprobe", kprobe_type).formats(retprobe="config:0")
    tree.pmu("uprobe", uprobe_type).formats(retprobe="config:0", ref_ctr_offset="config:32-63")


# --- Intel Sapphire Rapids, 2 sockets x 56 cores, SMT on (CPUs 0-223) -------------------------
def x86_show(event, umask=None, flags=(), cmask=None):
    """The generic-event style of x86_event_sysfs_show (event=0x%02x[,umask=0x%02x]...)."""
    text = f"event=0x{event:02x}"
    if umask is not None:
        text += f",umask=0x{umask:02x}"
    for flag in flags:
        text += f",{flag}"
    if cmask is not None:
        text += f",cmask=0x{cmask:02x}"
    return text


# The format layouts Intel's server uncore driver gives Sapphire Rapids and Clearwater Forest
# alike: most boxes, the CHAs (with the TID filter) and the IIO stacks (channel and FC masks).
SERVER_RAW_FORMAT = dict(event="config:0-7", umask="config:8-15,32-55", edge="config:18",
                         inv="config:23", thresh="config:24-31")
SERVER_CHA_FORMAT = dict(event="config:0-7", umask="config:8-15,32-63", tid_en="config:16",
                         edge="config:18", inv="config:23", thresh="config:24-31",
                         filter_tid="config1:0-9")
SERVER_IIO_FORMAT = dict(event="config:0-7", umask="config:8-15", edge="config:18",
                         inv="config:23", thresh="config:24-35", ch_mask="config:36-47",
                         fc_mask="config:48-50")


def server_uncore_maker(tree, sockets):
    """A function that adds one uncore box PMU of a server (dynamic types from 12 in
    registration order, the sockets' first CPUs as cpumask, the kernel's uncore_type alias),
    and the one-element list holding the next free type."""
    next_type = [12]

    def uncore(name, type_id, box, formats, events=()):
        pmu = tree.pmu(name, next_type[0])
        next_type[0] += 1
        pmu.formats(**formats)
        pmu.attr("cpumask", sockets).attr("alias", f"uncore_type_{type_id}_{box}")
        for event in events:
            pmu.event(*event[:2], **(event[2] if len(event) > 2 else {}))
        return pmu

    return uncore, next_type


def intel_spr():
    tree = Tree()
    cpu = tree.pmu("cpu", 4)
    cpu.formats(event="config:0-7", umask="config:8-15", edge="config:18", pc="config:19",
                inv="config:23", cmask="config:24-31", in_tx="config:32", in_tx_cp="config:33",
                offcore_rsp="config1:0-63", ldlat="config1:0-15", frontend="config1:0-23")
    generic = {"branch-instructions": (0xc4,), "branch-misses": (0xc5,),
               "bus-cycles": (0x3c, 0x01), "cache-misses": (0x2e, 0x41),
               "cache-references": (0x2e, 0x4f), "cpu-cycles": (0x3c,),
               "instructions": (0xc0,), "ref-cycles": (0x00, 0x03)}
    for name, codes in generic.items():
        cpu.event(name, x86_show(*codes))
    # Events the driver defines as literal strings (so their styles differ: umask=0x1, ldlat=3).
    cpu.event("mem-loads", "event=0xcd,umask=0x1,ldlat=3")
    cpu.event("mem-stores", "event=0xcd,umask=0x2")
    cpu.event("mem-loads-aux", "event=0x03,umask=0x82")
    cpu.event("slots", "event=0x00,umask=0x4")
    topdown = ["retiring", "bad-spec", "fe-bound", "be-bound", "heavy-ops", "br-mispredict",
               "fetch-lat", "mem-bound"]
    for index, name in enumerate(topdown):
        cpu.event(f"topdown-{name}", f"event=0x00,umask=0x{0x80 + index:x}")
    for prefix, event in (("tx", 0xc9), ("el", 0xc8)):
        for index, name in enumerate(("start", "commit", "abort")):
            cpu.event(f"{prefix}-{name}", f"event=0x{event:x},umask=0x{1 << index:x}")
    cpu.event("tx-conflict", "event=0x54,umask=0x1")
    cpu.event("tx-capacity-read", "event=0x54,umask=0x80")
    cpu.event("tx-capacity-write", "event=0x54,umask=0x2")
    cpu.event("el-conflict", "event=0x54,umask=0x1")
    cpu.event("el-capacity", "event=0x54,umask=0x2")
    cpu.event("cycles-t", "event=0x3c,in_tx=1")
    cpu.event("cycles-ct", "event=0x3c,in_tx=1,in_tx_cp=1")
    cpu.caps(max_precise="3", branches="32", pmu_name="sapphire_rapids")
    cpu.attr("rdpmc", "1").attr("freeze_on_smi", "0")

    sockets = "0,56"
    uncore, next_type = server_uncore_maker(tree, sockets)

    for box in range(4):
        uncore(f"uncore_cha_{box}", 0, box, SERVER_CHA_FORMAT)
    for box in range(2):
        uncore(f"uncore_iio_{box}", 1, box, SERVER_IIO_FORMAT)
    mib = {"unit": "MiB", "scale": "6.103515625e-5"}
    for box in range(4):
        uncore(f"uncore_imc_{box}", 6, box, SERVER_RAW_FORMAT,
               [("clockticks", "event=0x01,umask=0x00"),
                ("cas_count_read", "event=0x05,umask=0xcf", mib),
                ("cas_count_write", "event=0x05,umask=0xf0", mib)])
    for box in range(2):
        uncore(f"uncore_upi_{box}", 8, box, SERVER_RAW_FORMAT)
    free_running = dict(event="config:0-7", umask="config:8-15")
    bandwidth = {"unit": "MiB", "scale": "3.814697266e-6"}
    for box in range(2):
        events = [("ioclk", "event=0xff,umask=0x10")]
        events += [(f"bw_in_port{p}", f"event=0xff,umask=0x{0x20 + p:x}", bandwidth)
                   for p in range(8)]
        events += [(f"bw_out_port{p}", f"event=0xff,umask=0x{0x30 + p:x}", bandwidth)
                   for p in range(8)]
        uncore(f"uncore_iio_free_running_{box}", 1, box + 12, free_running, events)
    uncore("uncore_imc_free_running_0", 6, 16, free_running,
           [("dclk", "event=0xff,umask=0x10"), ("rpq_cycles", "event=0xff,umask=0x20"),
            ("wpq_cycles", "event=0xff,umask=0x21")])

    tree.pmu("cstate_core", 6).formats(event="config:0-63").attr("cpumask", "0-111") \
        .event("c1-residency", "event=0x00").event("c6-residency", "event=0x02")
    tree.pmu("cstate_pkg", 7).formats(event="config:0-63").attr("cpumask", sockets) \
        .event("c2-residency", "event=0x00").event("c6-residency", "event=0x02")
    joules = {"unit": "Joules", "scale": "2.3283064365386962890625e-10"}
    tree.pmu("power", 8).formats(event="config:0-7").attr("cpumask", sockets) \
        .event("energy-pkg", "event=0x02", **joules).event("energy-ram", "event=0x03", **joules)
    msr = tree.pmu("msr", 9).formats(event="config:0-63")
    for index, name in enumerate(("tsc", "aperf", "mperf", "pperf", "smi")):
        msr.event(name, f"event=0x{index:02x}")
    msr.event("cpu_thermal_margin", "event=0x07", unit="C", snapshot=True)
    pt = tree.pmu("intel_pt", 10)
    pt.formats(pt="config:0", cyc="config:1", pwr_evt="config:4", fup_on_ptw="config:5",
               mtc="config:9", tsc="config:10", noretcomp="config:11", ptw="config:12",
               branch="config:13", mtc_period="config:14-17", cyc_thresh="config:19-22",
               psb_period="config:24-27", event="config:31", notnt="config:55")
    pt.caps(cr3_filtering="1", psb_cyc="1", ip_filtering="1", mtc="1", ptwrite="1",
            power_event_trace="1", event_trace="0", tnt_disable="0", topa_output="1",
            topa_multiple_entries="1", single_range_output="1", output_subsys="0",
            payloads_lip="0", num_address_ranges="2", mtc_periods="249", cycle_thresholds="3fff",
            psb_periods="3f")
    pt.attr("nr_addr_filters", "2").attr("max_nonturbo_ratio", "20").attr("tsc_art_ratio",
                                                                         "104:2")
    fixed_pmus(tree, kprobe_type=11, uprobe_type=next_type[0])
    return tree


# --- AMD EPYC Genoa (Zen 4), 2 sockets x 96 cores, SMT on (CPUs 0-383) ------------------------
AMD_IOMMU_EVENTS = [
    "mem_pass_untrans", "mem_pass_pretrans", "mem_pass_excl", "mem_target_abort",
    "mem_trans_total", "mem_iommu_tlb_pte_hit", "mem_iommu_tlb_pte_mis",
    "mem_iommu_tlb_pde_hit", "mem_iommu_tlb_pde_mis", "mem_dte_hit", "mem_dte_mis",
    "page_tbl_read_tot", "page_tbl_read_nst", "page_tbl_read_gst", "int_dte_hit", "int_dte_mis",
    "cmd_processed", "cmd_processed_inv", "tlb_inv", "ign_rd_wr_mmio_1ff8h",
    "vapic_int_non_guest", "vapic_int_guest", "smi_recv", "smi_blk"]


def amd_zen4():
    tree = Tree()
    cpu = tree.pmu("cpu", 4)
    cpu.formats(event="config:0-7,32-35", umask="config:8-15", edge="config:18",
                inv="config:23", cmask="config:24-31")
    for name, codes in {"cpu-cycles": (0x76,), "instructions": (0xc0,),
                        "cache-references": (0x60, 0xff), "cache-misses": (0x64, 0x09),
                        "branch-instructions": (0xc2,), "branch-misses": (0xc3,),
                        "stalled-cycles-frontend": (0xa9,), "ref-cycles": (0x120, 0x01)}.items():
        cpu.event(name, x86_show(*codes))
    cpu.caps(max_precise="0", branches="16")
    cpu.attr("rdpmc", "1")
    tree.pmu("amd_df", 6).formats(event="config:0-7,32-37", umask="config:8-15,24-27") \
        .attr("cpumask", "0,96")
    ccx_leaders = ",".join(str(cpu_) for cpu_ in range(0, 192, 8))
    tree.pmu("amd_l3", 7).formats(event="config:0-7", umask="config:8-15", coreid="config:42-44",
                                  enallslices="config:46", enallcores="config:47",
                                  sliceid="config:48-50", threadmask="config:56-57") \
        .attr("cpumask", ccx_leaders)
    ibs_fetch = tree.pmu("ibs_fetch", 8)
    ibs_fetch.formats(rand_en="config:57", l3missonly="config:59", swfilt="config2:0")
    ibs_fetch.files["caps"] = None  # an empty caps/ directory, as older IBS drivers leave it
    tree.pmu("ibs_op", 9).formats(cnt_ctl="config:19", l3missonly="config:16",
                                  ldlat="config1:0-11", swfilt="config2:0") \
        .caps(zen4_ibs_extensions="1", ldlat="1", swfilt_ldst="1")
    joules = {"unit": "Joules", "scale": "2.3283064365386962890625e-10"}
    tree.pmu("power", 10).formats(event="config:0-7").attr("cpumask", "0,96") \
        .event("energy-pkg", "event=0x02", **joules)
    msr = tree.pmu("msr", 11).formats(event="config:0-63")
    for name, code in (("tsc", 0), ("aperf", 1), ("mperf", 2), ("irperf", 6)):
        msr.event(name, f"event=0x{code:02x}")
    for box in range(4):
        tree.pmu(f"amd_umc_{box}", 12 + box).formats(event="config:0-7",
                                                     rdwrmask="config:8-9") \
            .attr("cpumask", "0")
    iommu = tree.pmu("amd_iommu_0", 16).formats(
        csource="config:0-7", devid="config:8-23", domid="config:24-39", pasid="config:40-59",
        devid_mask="config1:0-15", domid_mask="config1:16-31", pasid_mask="config1:32-51")
    iommu.attr("cpumask", "0")
    for index, name in enumerate(AMD_IOMMU_EVENTS, start=1):
        iommu.event(name, f"csource=0x{index:02x}")
    fixed_pmus(tree, kprobe_type=17, uprobe_type=18)
    return tree


# --- Arm Neoverse V1-class server, 1 socket x 64 cores, ACPI, CMN-650 mesh ---------------------
PMUV3_EVENTS = [
    ("sw_incr", 0x0000), ("l1i_cache_refill", 0x0001), ("l1i_tlb_refill", 0x0002),
    ("l1d_cache_refill", 0x0003), ("l1d_cache", 0x0004), ("l1d_tlb_refill", 0x0005),
    ("inst_retired", 0x0008), ("exc_taken", 0x0009), ("exc_return", 0x000a),
    ("cid_write_retired", 0x000b), ("br_mis_pred", 0x0010), ("cpu_cycles", 0x0011),
    ("br_pred", 0x0012), ("mem_access", 0x0013), ("l1i_cache", 0x0014),
    ("l1d_cache_wb", 0x0015), ("l2d_cache", 0x0016), ("l2d_cache_refill", 0x0017),
    ("l2d_cache_wb", 0x0018), ("bus_access", 0x0019), ("inst_spec", 0x001b),
    ("bus_cycles", 0x001d), ("br_retired", 0x0021), ("br_mis_pred_retired", 0x0022),
    ("stall_frontend", 0x0023), ("stall_backend", 0x0024), ("ll_cache_rd", 0x0036),
    ("ll_cache_miss_rd", 0x0037), ("stall_slot", 0x003f), ("sample_pop", 0x4000),
    ("cnt_cycles", 0x4004)]

CMN_HNF = ["cache_miss", "slc_sf_cache_access", "cache_fill", "pocq_retry", "pocq_reqs_recvd",
           "sf_hit", "sf_evictions", "dir_snoops_sent", "brd_snoops_sent", "slc_eviction",
           "slc_fill_invalid_way", "mc_retries", "mc_reqs", "qos_hh_retry"]
CMN_HNI = ["rrt_rd_occ_cnt_ovfl", "rrt_wr_occ_cnt_ovfl", "rdt_rd_occ_cnt_ovfl",
           "rdt_wr_occ_cnt_ovfl", "wdb_occ_cnt_ovfl", "rrt_rd_alloc", "rrt_wr_alloc",
           "rdt_rd_alloc", "rdt_wr_alloc", "wdb_alloc"]
CMN_RNID = ["s0_rdata_beats", "s1_rdata_beats", "s2_rdata_beats", "rxdat_flits", "txdat_flits",
            "txreq_flits_total", "txreq_flits_retried"]


def arm_spe_and_smmu(tree, spe_min_interval, smmu_addresses):
    """The SPE PMU (type 10, on CPUs 0-63) and the SMMUv3 PMCGs (types 11...) of an Arm server."""
    spe = tree.pmu("arm_spe_0", 10)
    spe.formats(ts_enable="config:0", pa_enable="config:1", pct_enable="config:2",
                jitter="config:16", branch_filter="config:32", load_filter="config:33",
                store_filter="config:34", event_filter="config1:0-63",
                min_latency="config2:0-11", inv_event_filter="config3:0-63")
    spe.attr("cpumask", "0-63")
    spe.caps(arch_inst="1", ernd="1", count_size="12", min_interval=spe_min_interval)

    smmu_events = ["cycles", "transaction", "tlb_miss", "config_cache_miss",
                   "trans_table_walk_access", "config_struct_access", "pcie_ats_trans_rq",
                   "pcie_ats_trans_passed"]
    for index, address in enumerate(smmu_addresses):
        smmu = tree.pmu(f"smmuv3_pmcg_{address}", 11 + index)
        smmu.formats(event="config:0-15", filter_stream_id="config1:0-31",
                     filter_span="config1:32", filter_enable="config1:33")
        smmu.attr("cpumask", "0").attr("identifier", "0x0000043b")
        for code, name in enumerate(smmu_events):
            smmu.event(name, f"event=0x{code:02x}")


def arm_neoverse():
    tree = Tree()
    pmuv3 = tree.pmu("armv8_pmuv3_0", 8)
    pmuv3.formats(event="config:0-15", long="config1:0", rdpmc="config1:1",
                  threshold_count="config1:2", threshold_compare="config1:3-4",
                  threshold="config1:5-16")
    pmuv3.attr("cpus", "0-63")
    for name, code in PMUV3_EVENTS:
        pmuv3.event(name, f"event=0x{code:04x}")
    pmuv3.caps(slots="0x00000008", bus_slots="0x00000020", bus_width="0x00000040",
               threshold_max="0x00000fff")

    cmn = tree.pmu("arm_cmn_0", 9)
    # Bit lists as the driver generates them from its field masks (config:a-b / config:a).
    cmn.format("type", "config:0-15")
    cmn.formats(eventid="config:16-26", occupid="config:27-30", bynodeid="config:31",
                nodeid="config:32-47", wp_dev_sel="config:48-50", wp_chn_sel="config:51-55",
                wp_grp="config:56-57", wp_exclusive="config:58", wp_combine="config:27-30",
                wp_val="config1:0-63", wp_mask="config2:0-63")
    cmn.attr("cpumask", "0").attr("identifier", "0x0430")
    cmn.event("dtc_cycles", "type=0x3")
    watchpoint = "wp_dev_sel=?,wp_chn_sel=?,wp_grp=?,wp_val=?,wp_mask=?"
    cmn.event("watchpoint_up", f"type=0x6,eventid=0x0,{watchpoint}")
    cmn.event("watchpoint_down", f"type=0x6,eventid=0x2,{watchpoint}")
    for index, name in enumerate(CMN_HNF, start=1):
        cmn.event(f"hnf_{name}", f"type=0x5,eventid=0x{index:x}")
    for occupid, name in enumerate(("all", "read", "write", "atomic", "stash")):
        cmn.event(f"hnf_qos_pocq_occupancy_{name}", f"type=0x5,eventid=0xf,occupid=0x{occupid:x}")
    for index, name in enumerate(CMN_HNI, start=0x20):
        cmn.event(f"hni_{name}", f"type=0x4,eventid=0x{index:x}")
    for index, name in enumerate(CMN_RNID, start=1):
        cmn.event(f"rnid_{name}", f"type=0xa,eventid=0x{index:x}")
    for index, name in enumerate(("e_req_vc_txflit_valid", "e_req_vc_txflit_stall",
                                  "n_dat_vc_txflit_valid", "s_rsp_vc_txflit_valid"), start=1):
        cmn.event(f"mxp_{name}", f"type=0x6,eventid=0x{index * 4 + 1:x}")

    arm_spe_and_smmu(tree, spe_min_interval="1024", smmu_addresses=("ff88840", "ff88860"))
    fixed_pmus(tree, kprobe_type=6, uprobe_type=7)
    return tree


# --- IBM POWER9 PowerVM LPAR ------------------------------------------------------------------
POWER9_CPU_EVENTS = [
    ("cpu-cycles", 0x1e), ("stalled-cycles-frontend", 0x100f8),
    ("stalled-cycles-backend", 0x1e054), ("instructions", 0x2), ("branch-instructions", 0x4d05e),
    ("branch-misses", 0x400f6), ("cache-references", 0x100fc), ("cache-misses", 0x3e054),
    ("L1-dcache-load-misses", 0x3e054), ("L1-dcache-loads", 0x100fc),
    ("L1-dcache-prefetches", 0x20054), ("L1-dcache-store-misses", 0x300f0),
    ("L1-icache-load-misses", 0x200fd), ("L1-icache-loads", 0x4080), ("L1-icache-prefetches", 0x4898),
    ("LLC-load-misses", 0x300fe), ("LLC-loads", 0x4c042), ("LLC-prefetches", 0x26880),
    ("LLC-store-misses", 0x16880), ("branch-load-misses", 0x400f6), ("branch-loads", 0x4d05e),
    ("dTLB-load-misses", 0x3c054), ("iTLB-load-misses", 0x400fc),
    ("PM_CYC", 0x1e), ("PM_ICT_NOSLOT_CYC", 0x100f8), ("PM_CMPLU_STALL", 0x1e054),
    ("PM_INST_CMPL", 0x2), ("PM_BR_CMPL", 0x4d05e), ("PM_BR_MPRED_CMPL", 0x400f6),
    ("PM_LD_REF_L1", 0x100fc), ("PM_LD_MISS_L1_FIN", 0x2c04e), ("PM_LD_MISS_L1", 0x3e054),
    ("PM_ST_MISS_L1", 0x300f0), ("PM_L1_PREF", 0x20054), ("PM_INST_FROM_L1", 0x4080),
    ("PM_L1_ICACHE_MISS", 0x200fd), ("PM_DATA_FROM_L3MISS", 0x300fe),
    ("PM_DATA_FROM_L3", 0x4c042), ("PM_DTLB_MISS", 0x300fc), ("PM_ITLB_MISS", 0x400fc),
    ("PM_RUN_INST_CMPL", 0x500fa), ("PM_RUN_CYC", 0x600f4)]

HV24X7_CHIP = [
    ("PM_PB_CYC", 0x80), ("PM_PB_INT_DATA_XFER", 0x88), ("PM_PB_EXT_DATA_XFER", 0x90),
    ("PM_MCS01_128B_RD_DISP_PORT01", 0xa0), ("PM_MCS01_128B_RD_DISP_PORT23", 0xa8),
    ("PM_MCS23_128B_RD_DISP_PORT01", 0xb0), ("PM_MCS23_128B_RD_DISP_PORT23", 0xb8),
    ("PM_MCS01_128B_WR_DISP_PORT01", 0xc0), ("PM_MCS01_128B_WR_DISP_PORT23", 0xc8),
    ("PM_MCS23_128B_WR_DISP_PORT01", 0xd0), ("PM_MCS23_128B_WR_DISP_PORT23", 0xd8),
    ("PM_XLINK0_OUT_ODD_TOTAL_UTIL", 0x100), ("PM_XLINK0_OUT_EVEN_TOTAL_UTIL", 0x108),
    ("PM_XLINK1_OUT_ODD_TOTAL_UTIL", 0x110), ("PM_XLINK1_OUT_EVEN_TOTAL_UTIL", 0x118),
    ("PM_XLINK2_OUT_ODD_TOTAL_UTIL", 0x120), ("PM_XLINK2_OUT_EVEN_TOTAL_UTIL", 0x128),
    ("PM_ALINK0_OUT_ODD_TOTAL_UTIL", 0x140), ("PM_ALINK0_OUT_EVEN_TOTAL_UTIL", 0x148),
    ("PM_PHB0_0_WR", 0x180), ("PM_PHB1_0_WR", 0x188), ("PM_PHB2_0_WR", 0x190),
    ("PM_CAPP1_APC_UOP_SEND_PB_CMD", 0x1c0), ("PM_CAPP2_APC_UOP_SEND_PB_CMD", 0x1c8)]

HV24X7_CORE = [
    ("PM_CPM_CCYC", 0x18), ("PM_CPM_32MHZ_CYC", 0x20), ("PM_PWR_CYC", 0x28),
    ("PM_INST_CMPL", 0x98), ("PM_RUN_CYC", 0xa0), ("PM_RUN_INST_CMPL", 0xa8),
    ("PM_CYC", 0xb0), ("PM_GCT_NOSLOT_CYC", 0xb8), ("PM_DISP_HELD", 0xc0),
    ("PM_L2_ST", 0xc8), ("PM_L2_LD_MISS", 0xd0)]

HV24X7_VCPU = [("PM_VCPU_DISPATCH_TIME", 0x200), ("PM_VCPU_DISPATCHES", 0x208),
               ("PM_VCPU_RUN_INST_CMPL", 0x210), ("PM_VCPU_RUN_CYC", 0x218),
               ("PM_VCPU_IDLE_TIME", 0x220)]

HV_GPCI_EVENTS = [
    ("processor_core_utilization_instructions_completed",
     "request=0x94,phys_processor_idx=?,counter_info_version=0x8,length=8,offset=0x18"),
    ("processor_core_utilization_cycles",
     "request=0x94,phys_processor_idx=?,counter_info_version=0x8,length=8,offset=0x10"),
    ("processor_core_utilization_run_cycles",
     "request=0x94,phys_processor_idx=?,counter_info_version=0x8,length=8,offset=0x20"),
    ("processor_core_utilization_timebase",
     "request=0x94,phys_processor_idx=?,counter_info_version=0x8,length=8,offset=0x8"),
    ("dispatch_timebase_by_processor_processor_time_in_timebase_cycles",
     "request=0x10,phys_processor_idx=?,counter_info_version=0x8,length=8,offset=0x20"),
    ("dispatch_timebase_by_processor_hw_processor_id",
     "request=0x10,phys_processor_idx=?,counter_info_version=0x8,length=2,offset=0"),
    ("dispatch_timebase_by_processor_owning_part_id",
     "request=0x10,phys_processor_idx=?,counter_info_version=0x8,length=2,offset=0x2"),
    ("system_performance_capabilities_perf_collect_privileged",
     "request=0x40,counter_info_version=0x8,length=1,offset=0"),
    ("system_performance_capabilities_capability_mask",
     "request=0x40,counter_info_version=0x8,length=1,offset=0x1"),
    ("partition_hypervisor_queuing_times_partition_id",
     "request=0xe0,partition_id=?,counter_info_version=0x8,length=2,offset=0"),
    ("partition_hypervisor_queuing_times_time_waiting_for_entitlement",
     "request=0xe0,partition_id=?,counter_info_version=0x8,length=8,offset=0x8")]


def power9():
    tree = Tree()
    cpu = tree.pmu("cpu", 4)
    cpu.formats(event="config:0-51", pmcxsel="config:0-7", mark="config:8",
                radix_scope="config:9", combine="config:10-11", unit="config:12-15",
                pmc="config:16-19", cache_sel="config:20-23", sample_mode="config:24-28",
                thresh_sel="config:29-31", thresh_stop="config:32-35",
                thresh_start="config:36-39", thresh_cmp="config:40-49",
                sdar_mode="config:50-51")
    for name, code in POWER9_CPU_EVENTS:
        cpu.event(name, f"event=0x{code:06x}")
    cpu.caps(pmu_name="POWER9")

    hv = tree.pmu("hv_24x7", 6)
    hv.formats(domain="config:0-3", core="config:16-31", chip="config:16-31",
               vcpu="config:16-31", offset="config:32-63", lpar="config1:0-15")
    hv.attr("cpumask", "0")
    for name, offset in HV24X7_CHIP:
        hv.event(name, f"domain=1,offset=0x{offset:x},chip=?,lpar=0x0")
    for name, offset in HV24X7_CORE:
        hv.event(name, f"domain=?,offset=0x{offset:x},core=?,lpar=0x0")
    for name, offset in HV24X7_VCPU:
        hv.event(name, f"domain=?,offset=0x{offset:x},vcpu=?,lpar=?")
    hv.attr("interface/catalog", b"24x7" + bytes(60))
    hv.attr("interface/catalog_len", "0x1000")
    hv.attr("interface/catalog_version", "0x6a")
    hv.attr("interface/domains",
            "1: Physical Chip\n2: Physical Core\n3: VCPU Home Core\n4: VCPU Home Chip\n"
            "5: VCPU Home Node\n6: VCPU Remote Node")
    hv.attr("interface/sockets", "2").attr("interface/chipspersocket", "1")
    hv.attr("interface/coresperchip", "12")

    gpci = tree.pmu("hv_gpci", 7)
    gpci.formats(request="config:0-31", starting_index="config:32-63",
                 phys_processor_idx="config:32-63", sibling_part_id="config:32-63",
                 hw_chip_id="config:32-63", partition_id="config:32-63",
                 secondary_index="config1:0-15", counter_info_version="config1:16-23",
                 length="config1:24-31", offset="config1:32-63")
    gpci.attr("cpumask", "0")
    for name, terms in HV_GPCI_EVENTS:
        gpci.event(name, terms)
    for name, value in (("collect_privileged", "0"), ("ga", "1"), ("expanded", "0"),
                        ("lab", "0"), ("version", "0x0"), ("kernel_version", "6")):
        gpci.attr(f"interface/{name}", value)
    fixed_pmus(tree, kprobe_type=8, uprobe_type=9)
    return tree


# --- Intel Alder Lake-S hybrid: 8 P-cores with SMT (CPUs 0-15), 8 E-cores (CPUs 16-23) ---------
def intel_adl_hybrid():
    tree = Tree()
    generic = {"branch-instructions": (0xc4,), "branch-misses": (0xc5,),
               "bus-cycles": (0x3c, 0x01), "cache-misses": (0x2e, 0x41),
               "cache-references": (0x2e, 0x4f), "cpu-cycles": (0x3c,),
               "instructions": (0xc0,), "ref-cycles": (0x00, 0x03)}
    # Each core type is its own core PMU with `cpus`: cpu_core takes PERF_TYPE_RAW (4), cpu_atom
    # a dynamic type (10 on ADL/RPL).
    core = tree.pmu("cpu_core", 4)
    core.formats(event="config:0-7", umask="config:8-15", edge="config:18", pc="config:19",
                 inv="config:23", cmask="config:24-31", offcore_rsp="config1:0-63",
                 ldlat="config1:0-15", frontend="config1:0-23")
    core.attr("cpus", "0-15")
    for name, codes in generic.items():
        core.event(name, x86_show(*codes))
    core.event("mem-loads", "event=0xcd,umask=0x1,ldlat=3")
    core.event("mem-stores", "event=0xcd,umask=0x2")
    core.event("mem-loads-aux", "event=0x03,umask=0x82")
    core.event("slots", "event=0x00,umask=0x4")
    topdown = ["retiring", "bad-spec", "fe-bound", "be-bound", "heavy-ops", "br-mispredict",
               "fetch-lat", "mem-bound"]
    for index, name in enumerate(topdown):
        core.event(f"topdown-{name}", f"event=0x00,umask=0x{0x80 + index:x}")
    core.caps(max_precise="3", branches="32", pmu_name="alderlake_hybrid")

    atom = tree.pmu("cpu_atom", 10)
    atom.formats(event="config:0-7", umask="config:8-15", edge="config:18", pc="config:19",
                 inv="config:23", cmask="config:24-31", offcore_rsp="config1:0-63",
                 ldlat="config1:0-15")
    atom.attr("cpus", "16-23")
    for name, codes in generic.items():
        atom.event(name, x86_show(*codes))
    atom.event("mem-loads", "event=0xd0,umask=0x5,ldlat=3")
    atom.event("mem-stores", "event=0xd0,umask=0x6")
    atom.caps(max_precise="3", branches="32", pmu_name="alderlake_hybrid")

    client = dict(event="config:0-7", umask="config:8-15", edge="config:18", inv="config:23",
                  cmask="config:24-28")
    for box in range(10):
        tree.pmu(f"uncore_cbox_{box}", 11 + box).formats(**client).attr("cpumask", "0")
    tree.pmu("uncore_arb", 21).formats(**client).attr("cpumask", "0")
    tree.pmu("uncore_clock", 22).formats(event="config:0-7").attr("cpumask", "0") \
        .event("clockticks", "event=0xff")
    mib = {"unit": "MiB", "scale": "6.103515625e-5"}
    tree.pmu("uncore_imc_free_running_0", 23) \
        .formats(event="config:0-7", umask="config:8-15").attr("cpumask", "0") \
        .event("data_read", "event=0xff,umask=0x20", **mib) \
        .event("data_write", "event=0xff,umask=0x21", **mib) \
        .event("data_total", "event=0xff,umask=0x10", **mib)

    tree.pmu("cstate_core", 8).formats(event="config:0-63").attr("cpumask", "0-23") \
        .event("c1-residency", "event=0x00").event("c6-residency", "event=0x02") \
        .event("c7-residency", "event=0x03")
    tree.pmu("cstate_pkg", 9).formats(event="config:0-63").attr("cpumask", "0") \
        .event("c2-residency", "event=0x00").event("c6-residency", "event=0x02") \
        .event("c8-residency", "event=0x04").event("c10-residency", "event=0x06")
    joules = {"unit": "Joules", "scale": "2.3283064365386962890625e-10"}
    power = tree.pmu("power", 24).formats(event="config:0-7").attr("cpumask", "0")
    for name, code in (("energy-cores", 0x01), ("energy-pkg", 0x02), ("energy-gpu", 0x04),
                       ("energy-psys", 0x05)):
        power.event(name, f"event=0x{code:02x}", **joules)
    msr = tree.pmu("msr", 25).formats(event="config:0-63")
    for name, code in (("tsc", 0x00), ("aperf", 0x01), ("mperf", 0x02), ("pperf", 0x03),
                       ("smi", 0x04)):
        msr.event(name, f"event=0x{code:02x}")
    msr.event("cpu_thermal_margin", "event=0x07", unit="C", snapshot=True)
    fixed_pmus(tree, kprobe_type=6, uprobe_type=7)
    return tree


# --- arm64 Neoverse N1 (ACPI), 8 CPUs; the MIDR selects the vendor JSON model ------------------
def arm64_n1():
    tree = Tree()
    pmuv3 = tree.pmu("armv8_pmuv3_0", 8)
    pmuv3.formats(event="config:0-15", long="config1:0")
    pmuv3.attr("cpus", "0-7")
    for name, code in PMUV3_EVENTS:
        if code < 0x4000:  # the common events of PMCEID0/1; N1 has no 0x4000 range
            pmuv3.event(name, f"event=0x{code:04x}")
    spe = tree.pmu("arm_spe_0", 9)
    spe.formats(ts_enable="config:0", pa_enable="config:1", pct_enable="config:2",
                jitter="config:16", branch_filter="config:32", load_filter="config:33",
                store_filter="config:34", event_filter="config1:0-63",
                min_latency="config2:0-11")
    spe.attr("cpumask", "0-7")
    spe.caps(arch_inst="1", ernd="0", count_size="12", min_interval="1024")
    # Neoverse N1 r3p1: implementer 0x41, variant 3, architecture 0xf, part 0xd0c, revision 1.
    # perf clears variant and revision: the identifier is 0x00000000410fd0c0.
    for cpu in range(8):
        base = f"devices/system/cpu/cpu{cpu}/regs/identification"
        tree.extra[f"{base}/midr_el1"] = "0x00000000413fd0c1\n"
        tree.extra[f"{base}/revidr_el1"] = "0x0000000000000000\n"
    fixed_pmus(tree, kprobe_type=6, uprobe_type=7)
    return tree


# --- Intel Arrow Lake-H hybrid: 6 P-cores without SMT (CPUs 0-5), 8 E-cores (CPUs 6-13), 2
# low-power E-cores (CPUs 14-15): three core PMUs ---------------------------------------------
# ArchPerfmon v6 widens umask with the umask2 bits: the kernel prints the same `umask` file as
# config:8-15,40-47 and adds `eq`, so the tables' 9- and 16-bit UMasks (0x1ff, 0x8002) encode.
X86_UMASK2 = "config:8-15,40-47"
X86_GENERIC = {"branch-instructions": (0xc4,), "branch-misses": (0xc5,),
               "bus-cycles": (0x3c, 0x01), "cache-misses": (0x2e, 0x41),
               "cache-references": (0x2e, 0x4f), "cpu-cycles": (0x3c,),
               "instructions": (0xc0,), "ref-cycles": (0x00, 0x03)}


def atom_core_pmu(tree, name, type_, cpus, pmu_name):
    """An E-core PMU (cpu_atom, cpu_lowpower, or the only `cpu` of an E-core server)."""
    pmu = tree.pmu(name, type_)
    pmu.formats(event="config:0-7", umask=X86_UMASK2, edge="config:18", pc="config:19",
                inv="config:23", cmask="config:24-31", eq="config:36",
                offcore_rsp="config1:0-63", ldlat="config1:0-15", snoop_rsp="config1:0-63")
    if cpus is not None:
        pmu.attr("cpus", cpus)
    for event, codes in X86_GENERIC.items():
        pmu.event(event, x86_show(*codes))
    pmu.event("mem-loads", "event=0xd0,umask=0x5,ldlat=3")
    pmu.event("mem-stores", "event=0xd0,umask=0x6")
    pmu.caps(max_precise="3", branches="32", pmu_name=pmu_name)
    return pmu


def intel_arl_hybrid():
    tree = Tree()
    core = tree.pmu("cpu_core", 4)
    core.formats(event="config:0-7", umask=X86_UMASK2, edge="config:18", pc="config:19",
                 inv="config:23", cmask="config:24-31", eq="config:36",
                 offcore_rsp="config1:0-63", ldlat="config1:0-15", frontend="config1:0-23")
    core.attr("cpus", "0-5")
    for name, codes in X86_GENERIC.items():
        core.event(name, x86_show(*codes))
    core.event("mem-loads", "event=0xcd,umask=0x1,ldlat=3")
    core.event("mem-stores", "event=0xcd,umask=0x2")
    core.event("mem-loads-aux", "event=0x03,umask=0x82")
    core.event("slots", "event=0x00,umask=0x4")
    for index, name in enumerate(["retiring", "bad-spec", "fe-bound", "be-bound", "heavy-ops",
                                  "br-mispredict", "fetch-lat", "mem-bound"]):
        core.event(f"topdown-{name}", f"event=0x00,umask=0x{0x80 + index:x}")
    core.caps(max_precise="3", branches="32", pmu_name="arrowlake_h_hybrid")
    atom_core_pmu(tree, "cpu_atom", 10, "6-13", "arrowlake_h_hybrid")
    atom_core_pmu(tree, "cpu_lowpower", 11, "14-15", "arrowlake_h_hybrid")

    client = dict(event="config:0-7", umask="config:8-15", edge="config:18", inv="config:23",
                  cmask="config:24-28")
    next_type = [12]

    def uncore(name, formats=None):
        pmu = tree.pmu(name, next_type[0])
        next_type[0] += 1
        pmu.formats(**(formats or client)).attr("cpumask", "0")
        return pmu

    for box in range(3):
        uncore(f"uncore_cbox_{box}")
    uncore("uncore_arb")
    uncore("uncore_hac_arb")
    for box in range(2):
        uncore(f"uncore_hac_cbox_{box}")
    uncore("uncore_cncu", dict(event="config:0-7")).event("clockticks", "event=0xff")
    for box in range(2):
        uncore(f"uncore_imc_{box}", dict(event="config:0-7"))
    mib = {"unit": "MiB", "scale": "6.103515625e-5"}
    for box in range(2):
        uncore(f"uncore_imc_free_running_{box}", dict(event="config:0-7", umask="config:8-15")) \
            .event("data_read", "event=0xff,umask=0x20", **mib) \
            .event("data_write", "event=0xff,umask=0x30", **mib)

    tree.pmu("cstate_core", 8).formats(event="config:0-63").attr("cpumask", "0-15") \
        .event("c1-residency", "event=0x00").event("c6-residency", "event=0x02") \
        .event("c7-residency", "event=0x03")
    tree.pmu("cstate_pkg", 9).formats(event="config:0-63").attr("cpumask", "0") \
        .event("c2-residency", "event=0x00").event("c6-residency", "event=0x02") \
        .event("c10-residency", "event=0x06")
    joules = {"unit": "Joules", "scale": "2.3283064365386962890625e-10"}
    power = uncore("power", dict(event="config:0-7"))
    for name, code in (("energy-cores", 0x01), ("energy-pkg", 0x02), ("energy-gpu", 0x04),
                       ("energy-psys", 0x05)):
        power.event(name, f"event=0x{code:02x}", **joules)
    msr = tree.pmu("msr", next_type[0]).formats(event="config:0-63")
    for name, code in (("tsc", 0x00), ("aperf", 0x01), ("mperf", 0x02), ("pperf", 0x03),
                       ("smi", 0x04)):
        msr.event(name, f"event=0x{code:02x}")
    msr.event("cpu_thermal_margin", "event=0x07", unit="C", snapshot=True)
    fixed_pmus(tree, kprobe_type=6, uprobe_type=7)
    return tree


# --- Intel Clearwater Forest, 2 sockets x 288 E-cores, no SMT (CPUs 0-575) -------------------
def intel_cwf():
    tree = Tree()
    cpu = atom_core_pmu(tree, "cpu", 4, None, "clearwater_forest")
    cpu.attr("rdpmc", "1").attr("freeze_on_smi", "0")

    sockets = "0,288"
    uncore, next_type = server_uncore_maker(tree, sockets)

    for box in range(4):
        uncore(f"uncore_cha_{box}", 0, box, SERVER_CHA_FORMAT)
    for box in range(2):
        uncore(f"uncore_chacms_{box}", 34, box, SERVER_RAW_FORMAT)
    for box in range(2):
        uncore(f"uncore_iio_{box}", 1, box, SERVER_IIO_FORMAT)
    for box in range(2):
        uncore(f"uncore_irp_{box}", 2, box, SERVER_RAW_FORMAT)
    uncore("uncore_pcu", 4, 0, SERVER_RAW_FORMAT)
    mib = {"unit": "MiB", "scale": "6.103515625e-5"}
    for box in range(4):
        uncore(f"uncore_imc_{box}", 6, box, SERVER_RAW_FORMAT,
               [("clockticks", "event=0x01,umask=0x01"),
                ("cas_count_read", "event=0x05,umask=0xcf", mib),
                ("cas_count_write", "event=0x05,umask=0xf0", mib)])
    for box in range(2):
        uncore(f"uncore_upi_{box}", 8, box, SERVER_RAW_FORMAT)
    for box in range(2):
        uncore(f"uncore_b2cmi_{box}", 16, box, SERVER_RAW_FORMAT)
    uncore("uncore_b2upi_0", 18, 0, SERVER_RAW_FORMAT)
    uncore("uncore_b2hot_0", 17, 0, SERVER_RAW_FORMAT)
    uncore("uncore_b2cxl_0", 19, 0, SERVER_RAW_FORMAT)
    uncore("uncore_cxlcm_0", 12, 0, SERVER_RAW_FORMAT)
    uncore("uncore_cxldp_0", 13, 0, SERVER_RAW_FORMAT)
    uncore("uncore_mdf_0", 20, 0, SERVER_RAW_FORMAT)
    uncore("uncore_ubox", 22, 0, SERVER_RAW_FORMAT)

    tree.pmu("cstate_core", 6).formats(event="config:0-63").attr("cpumask", "0-575") \
        .event("c1-residency", "event=0x00").event("c6-residency", "event=0x02")
    modules = ",".join(str(cpu_) for cpu_ in range(0, 576, 4))  # 4 E-cores share a module
    tree.pmu("cstate_module", 7).formats(event="config:0-63").attr("cpumask", modules) \
        .event("c6-residency", "event=0x00")
    tree.pmu("cstate_pkg", 8).formats(event="config:0-63").attr("cpumask", sockets) \
        .event("c6-residency", "event=0x02")
    joules = {"unit": "Joules", "scale": "2.3283064365386962890625e-10"}
    tree.pmu("power", 9).formats(event="config:0-7").attr("cpumask", sockets) \
        .event("energy-pkg", "event=0x02", **joules).event("energy-ram", "event=0x03", **joules)
    msr = tree.pmu("msr", 10).formats(event="config:0-63")
    for index, name in enumerate(("tsc", "aperf", "mperf", "pperf", "smi")):
        msr.event(name, f"event=0x{index:02x}")
    fixed_pmus(tree, kprobe_type=11, uprobe_type=next_type[0])
    return tree


# --- AMD EPYC Zen 6, 2 sockets x 96 cores (8 CCX of 12), SMT on (CPUs 0-383) -----------------
def amd_zen6():
    tree = Tree()
    cpu = tree.pmu("cpu", 4)
    cpu.formats(event="config:0-7,32-35", umask="config:8-15", edge="config:18",
                inv="config:23", cmask="config:24-31")
    for name, codes in {"cpu-cycles": (0x76,), "instructions": (0xc0,),
                        "cache-references": (0x60, 0xff), "cache-misses": (0x64, 0x09),
                        "branch-instructions": (0xc2,), "branch-misses": (0xc3,),
                        "stalled-cycles-frontend": (0xa9,), "ref-cycles": (0x120, 0x01)}.items():
        cpu.event(name, x86_show(*codes))
    cpu.caps(max_precise="0", branches="16")
    cpu.attr("rdpmc", "1")
    sockets = "0,96"
    tree.pmu("amd_df", 6).formats(event="config:0-7,32-37", umask="config:8-15,24-27") \
        .attr("cpumask", sockets)
    ccx_leaders = ",".join(str(cpu_) for cpu_ in range(0, 192, 12))
    tree.pmu("amd_l3", 7).formats(event="config:0-7", umask="config:8-15", coreid="config:42-44",
                                  enallslices="config:46", enallcores="config:47",
                                  sliceid="config:48-50", threadmask="config:56-57") \
        .attr("cpumask", ccx_leaders)
    tree.pmu("ibs_fetch", 8).formats(rand_en="config:57", l3missonly="config:59",
                                     swfilt="config2:0") \
        .caps(zen4_ibs_extensions="1")
    tree.pmu("ibs_op", 9).formats(cnt_ctl="config:19", l3missonly="config:16",
                                  ldlat="config1:0-11", swfilt="config2:0") \
        .caps(zen4_ibs_extensions="1", ldlat="1", swfilt_ldst="1")
    joules = {"unit": "Joules", "scale": "2.3283064365386962890625e-10"}
    tree.pmu("power", 10).formats(event="config:0-7").attr("cpumask", sockets) \
        .event("energy-pkg", "event=0x02", **joules)
    tree.pmu("power_core", 11).formats(event="config:0-7").attr("cpumask", "0-191") \
        .event("energy-core", "event=0x01", **joules)
    msr = tree.pmu("msr", 12).formats(event="config:0-63")
    for name, code in (("tsc", 0), ("aperf", 1), ("mperf", 2), ("irperf", 6)):
        msr.event(name, f"event=0x{code:02x}")
    for box in range(4):
        tree.pmu(f"amd_umc_{box}", 13 + box).formats(event="config:0-7",
                                                     rdwrmask="config:8-9") \
            .attr("cpumask", "0")
    fixed_pmus(tree, kprobe_type=17, uprobe_type=18)
    return tree


# --- Arm Neoverse V3 server, 1 socket x 64 cores, ACPI, a CMN S3 mesh; the MIDR selects the
# vendor JSON model ------------------------------------------------------------------------------
def arm_neoverse_v3():
    tree = Tree()
    pmuv3 = tree.pmu("armv8_pmuv3_0", 8)
    pmuv3.formats(event="config:0-15", long="config1:0", rdpmc="config1:1")
    pmuv3.attr("cpus", "0-63")
    for name, code in PMUV3_EVENTS:
        pmuv3.event(name, f"event=0x{code:04x}")
    pmuv3.caps(slots="0x00000010", bus_slots="0x00000020", bus_width="0x00000040")

    cmn = tree.pmu("arm_cmn_0", 9)
    cmn.format("type", "config:0-15")
    cmn.formats(eventid="config:16-26", occupid="config:27-30", bynodeid="config:31",
                nodeid="config:32-47", wp_dev_sel="config:48-50", wp_chn_sel="config:51-55",
                wp_grp="config:56-57", wp_exclusive="config:58", wp_combine="config:27-30",
                wp_val="config1:0-63", wp_mask="config2:0-63")
    cmn.attr("cpumask", "0").attr("identifier", "0x043e")
    cmn.event("dtc_cycles", "type=0x3")
    watchpoint = "wp_dev_sel=?,wp_chn_sel=?,wp_grp=?,wp_val=?,wp_mask=?"
    cmn.event("watchpoint_up", f"type=0x6,eventid=0x0,{watchpoint}")
    cmn.event("watchpoint_down", f"type=0x6,eventid=0x2,{watchpoint}")
    for index, name in enumerate(CMN_HNF[:6], start=1):
        cmn.event(f"hnf_{name}", f"type=0x5,eventid=0x{index:x}")
    cmn.event("hnf_qos_pocq_occupancy_all", "type=0x5,eventid=0xf,occupid=0x0")

    arm_spe_and_smmu(tree, spe_min_interval="256", smmu_addresses=("8000020", "8040020"))
    # Neoverse V3 r0p1: implementer 0x41, architecture 0xf, part 0xd83 as linux 7.3's mapfile
    # lists it; perf's identifier clears variant and revision: 0x00000000410fd830.
    for cpu in range(64):
        base = f"devices/system/cpu/cpu{cpu}/regs/identification"
        tree.extra[f"{base}/midr_el1"] = "0x00000000410fd831\n"
        tree.extra[f"{base}/revidr_el1"] = "0x0000000000000000\n"
    fixed_pmus(tree, kprobe_type=6, uprobe_type=7)
    return tree


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "fixtures", "sysfs")
    builders = {"intel-spr": intel_spr, "amd-zen4": amd_zen4, "arm-neoverse": arm_neoverse,
                "power9": power9, "intel-adl-hybrid": intel_adl_hybrid, "arm64-n1": arm64_n1,
                "intel-arl-hybrid": intel_arl_hybrid, "intel-cwf": intel_cwf,
                "amd-zen6": amd_zen6, "arm-neoverse-v3": arm_neoverse_v3}
    for name in TREES:
        builders[name]().write(os.path.join(out, name))
        print(f"wrote {os.path.join(out, name)}")


if __name__ == "__main__":
    main()
