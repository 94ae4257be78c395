# The demo vendor model `demolake` of fixtures/pmu-events (its README): our own events, written
# at configure time as fixtures/pmu-events/arch/x86/demolake/<topic>.json, the layout the vendor
# reader takes. Kept here as records: no JSON file in the kernel's layout is committed (the
# kernel's own are extracted at build time, cmake/PmucatEvents.cmake).
# pmucat_demo_event(TOPIC Field Value [Field Value ...]): one event object, fields in this order;
# pmucat_demo_indent(TOPIC N): that file is indented by N spaces (2 otherwise).
# pmucat_demo_mapfile_row(ROW): a row of arch/x86/mapfile.csv, the table that names the model.

pmucat_demo_mapfile_row("GenuineIntel-6-8F,v1,demolake,core")

pmucat_demo_indent(uncore-cache 4)
pmucat_demo_indent(uncore-memory 4)

pmucat_demo_event(cache
  EventName "L1D.REPLACEMENT"
  EventCode "0x51"
  UMask "0x1"
  SampleAfterValue "100003"
  Counter "0,1,2,3"
  BriefDescription "Lines the L1 data cache took in, each evicting one"
  PublicDescription "How many lines entered the L1 data cache, one eviction each: it grows with the part of the working set that does not fit, whatever brought the line in (loads, stores, prefetches).")
pmucat_demo_event(cache
  EventName "MEM_LOAD_RETIRED.L3_MISS"
  EventCode "0xd1"
  UMask "0x20"
  SampleAfterValue "50021"
  Counter "0,1,2,3"
  PEBS "1"
  Data_LA "1"
  BriefDescription "Loads that retired after their data came from beyond the L3")
pmucat_demo_event(cache
  EventName "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32"
  EventCode "0xcd"
  UMask "0x1"
  MSRIndex "0x3F6"
  MSRValue "0x20"
  SampleAfterValue "100007"
  Counter "1,2,3,4,5,6,7"
  PEBS "2"
  Data_LA "1"
  BriefDescription "Sampled loads slower than 32 core cycles")
pmucat_demo_event(frontend
  EventName "FRONTEND_RETIRED.DSB_MISS"
  EventCode "0xc6"
  UMask "0x1"
  MSRIndex "0x3F7"
  MSRValue "0x11"
  SampleAfterValue "100007"
  Counter "0,1,2,3,4,5,6,7"
  PEBS "1"
  BriefDescription "Completed instructions whose fetch missed the decoded-uop cache")
pmucat_demo_event(pipeline
  EventName "INST_RETIRED.ANY"
  UMask "0x1"
  SampleAfterValue "2000003"
  Counter "Fixed counter 0"
  PEBS "1"
  BriefDescription "Instructions that completed (the fixed instruction counter)"
  PublicDescription "One count per instruction that completes, however many micro-operations it had; this demo model puts it on the fixed counter only.")
pmucat_demo_event(pipeline
  EventName "BR_INST_RETIRED.ALL_BRANCHES"
  EventCode "0xc4"
  SampleAfterValue "400009"
  Counter "0,1,2,3,4,5,6,7"
  PEBS "1"
  BriefDescription "Branches that completed, taken or not")
pmucat_demo_event(pipeline
  EventName "BR_MISP_RETIRED.ALL_BRANCHES"
  EventCode "0xc5"
  SampleAfterValue "400009"
  Counter "0,1,2,3,4,5,6,7"
  PEBS "1"
  BriefDescription "Completed branches the predictor got wrong"
  PublicDescription "Completed branches whose direction or target was predicted wrong; each one throws away the work fetched after it.")
pmucat_demo_event(pipeline
  EventName "UOPS_ISSUED.ANY_OLD"
  EventCode "0xae"
  UMask "0x1"
  SampleAfterValue "2000003"
  Counter "0,1,2,3,4,5,6,7"
  Deprecated "1"
  BriefDescription "Old name of the issued micro-operation count (see uops_issued.any)")
pmucat_demo_event(pipeline
  EventName "UOPS_ISSUED.ANY"
  EventCode "0xae"
  UMask "0x1"
  SampleAfterValue "2000003"
  Counter "0,1,2,3,4,5,6,7"
  BriefDescription "Micro-operations handed from the front end to the back end")
pmucat_demo_event(pipeline
  EventName "UOPS_ISSUED.STALL_CYCLES"
  EventCode "0xae"
  UMask "0x1"
  CounterMask "1"
  Invert "1"
  SampleAfterValue "1000003"
  Counter "0,1,2,3,4,5,6,7"
  BriefDescription "Cycles in which the front end handed over nothing")
pmucat_demo_event(uncore-cache
  BriefDescription "Uncore cache agent clock ticks"
  Counter "0,1,2,3"
  EventCode "0x01"
  EventName "UNC_CHA_CLOCKTICKS"
  PerPkg "1"
  Unit "CHA")
pmucat_demo_event(uncore-cache
  BriefDescription "Table of requests inserts: misses from local cores"
  Counter "0,1,2,3"
  EventCode "0x35"
  EventName "UNC_CHA_TOR_INSERTS.IA_MISS"
  PerPkg "1"
  UMask "0xc001fe01"
  Unit "CHA")
pmucat_demo_event(uncore-memory
  BriefDescription "DRAM read commands, in 64-byte lines"
  Counter "0,1,2,3"
  EventCode "0x05"
  EventName "UNC_M_CAS_COUNT.RD"
  PerPkg "1"
  ScaleUnit "64Bytes"
  UMask "0xcf"
  Unit "iMC")
pmucat_demo_event(uncore-memory
  BriefDescription "DRAM read commands (the driver's alias)"
  Counter "0,1,2,3"
  EventCode "0x05"
  EventName "CAS_COUNT_READ"
  PerPkg "1"
  UMask "0xcf"
  Unit "iMC")
# Metrics (demolake-metrics.json, topic `metrics`): our own formulas over the events above, for
# the metric listing (pmuls --metrics), expansion and evaluation. CPI has no description and no
# group (perf lists it under No_group) and refers to another metric.
pmucat_demo_indent(demolake-metrics 4)
pmucat_demo_event(demolake-metrics
  BriefDescription "Instructions retired per core cycle"
  MetricExpr "INST_RETIRED.ANY / cycles"
  MetricGroup "Ret;Summary"
  MetricName "IPC")
pmucat_demo_event(demolake-metrics
  MetricExpr "1 / IPC"
  MetricName "CPI")
pmucat_demo_event(demolake-metrics
  BriefDescription "L1 data cache lines filled per thousand instructions"
  MetricExpr "1e3 * L1D.REPLACEMENT / INST_RETIRED.ANY"
  MetricGroup "CacheMisses;Mem"
  MetricName "L1D_MPKI")
pmucat_demo_event(demolake-metrics
  BriefDescription "Cycles in which the front end issued no micro-operation, as a share of all cycles."
  MetricExpr "UOPS_ISSUED.STALL_CYCLES / cycles"
  MetricGroup "TopdownL1;tma_L1_group"
  MetricName "tma_issue_stalls"
  PublicDescription "Cycles in which the front end issued no micro-operation, as a share of all cycles. High values point at instruction fetch or decode, or at a back end that cannot accept more work."
  ScaleUnit "100%"
  MetricConstraint "NO_NMI_WATCHDOG")
pmucat_demo_event(demolake-metrics
  BriefDescription "Micro-operations issued per cycle"
  MetricExpr "UOPS_ISSUED.ANY / cycles"
  MetricGroup "Pipeline;TopdownL1"
  MetricName "Issue_Rate")
pmucat_demo_event(demolake-metrics
  BriefDescription "DRAM read bandwidth, in GB per second"
  MetricExpr "64 * UNC_M_CAS_COUNT.RD / 1e9 / duration_time"
  MetricGroup "MemoryBW"
  MetricName "DRAM_Read_BW"
  ScaleUnit "1GB/s")

# Metrics of the demo model (our own, over the events above): pmumetric's examples and golden
# cases (docs/metrics.md). One references another, one uses a literal, one a tool event, one an
# uncore event printed with its 64Bytes scale.
pmucat_demo_event(metrics
  BriefDescription "Share of retired branches that were mispredicted"
  MetricExpr "BR_MISP_RETIRED.ALL_BRANCHES / BR_INST_RETIRED.ALL_BRANCHES"
  MetricGroup "BrMispredicts;Summary"
  MetricName "Branch_Misprediction_Ratio"
  MetricThreshold "Branch_Misprediction_Ratio > 0.05"
  ScaleUnit "100%")
pmucat_demo_event(metrics
  BriefDescription "Mispredicted branches per thousand branches"
  MetricExpr "1000 * Branch_Misprediction_Ratio"
  MetricGroup "BrMispredicts"
  MetricName "Mispredicts_Per_Kilo_Branch")
pmucat_demo_event(metrics
  BriefDescription "Instructions per retired branch"
  MetricExpr "INST_RETIRED.ANY / BR_INST_RETIRED.ALL_BRANCHES"
  MetricGroup "Branches;Summary"
  MetricName "Instructions_Per_Branch")
pmucat_demo_event(metrics
  BriefDescription "L1 data cache lines replaced per thousand instructions"
  MetricExpr "1000 * L1D.REPLACEMENT / INST_RETIRED.ANY"
  MetricGroup "CacheMisses;Mem"
  MetricName "L1D_Replacements_PKI")
pmucat_demo_event(metrics
  BriefDescription "Loads served beyond the L3 per thousand instructions"
  MetricExpr "1000 * MEM_LOAD_RETIRED.L3_MISS / INST_RETIRED.ANY"
  MetricGroup "CacheMisses;Mem"
  MetricName "L3_Miss_Loads_PKI")
pmucat_demo_event(metrics
  BriefDescription "Micro-operations issued per retired instruction"
  MetricExpr "UOPS_ISSUED.ANY / INST_RETIRED.ANY"
  MetricGroup "Pipeline"
  MetricName "Uops_Per_Instruction")
pmucat_demo_event(metrics
  BriefDescription "Branches retired per core"
  MetricExpr "BR_INST_RETIRED.ALL_BRANCHES / #num_cores"
  MetricGroup "Branches"
  MetricName "Branches_Per_Core")
pmucat_demo_event(metrics
  BriefDescription "DRAM read bandwidth"
  MetricExpr "64 * UNC_M_CAS_COUNT.RD / 1e9 / duration_time"
  MetricGroup "MemoryBW"
  MetricName "DRAM_Read_Bandwidth"
  ScaleUnit "1GB/s")
