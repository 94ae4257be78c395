# Builds the JSON tree perf 7.3's (or 7.2's) build hands to its jevents.py: the kernel's
# tools/perf/pmu-events/arch (every *.json and *.csv, copied) plus what that build generates with
# the kernel's own scripts (never written by pmucat, never committed):
#   arch/common/common/legacy-cache.json                  make_legacy_cache.py
#   arch/x86/amdzen*/extra-metric{s,groups}.json           amd_metrics.py MODEL
#   arch/arm64/arm/*/extra-metric{s,groups}.json (not cmn) arm64_metrics.py arm MODEL
#   arch/x86/<every other model>/extra-metric{s,groups}.json  intel_metrics.py MODEL
# each run as tools/perf/pmu-events/Build runs it: from the directory above SOURCE, with the
# source tree's `pmu-events/arch` as the tables to read, `-metricgroups` for the groups file.
# Run at build time by cmake/PmucatEvents.cmake:
#   cmake -DSOURCE=<...>/pmu-events -DDEST=<dir> -DPYTHON=python3 -DSTAMP=<file> -P this
# DEST/arch is replaced only when complete (DEST/arch.partial first), then STAMP is written.
foreach(var SOURCE DEST PYTHON STAMP)
  if(NOT ${var})
    message(FATAL_ERROR "PmucatGenerateEvents.cmake needs -D${var}=...")
  endif()
endforeach()
get_filename_component(work_dir ${SOURCE} DIRECTORY)
set(out ${DEST}/arch.partial)
file(REMOVE_RECURSE ${out})
file(MAKE_DIRECTORY ${out})

file(GLOB_RECURSE inputs RELATIVE ${SOURCE}/arch ${SOURCE}/arch/*.json ${SOURCE}/arch/*.csv)
foreach(input IN LISTS inputs)
  get_filename_component(subdir ${input} DIRECTORY)
  file(COPY ${SOURCE}/arch/${input} DESTINATION ${out}/${subdir})
endforeach()

# One generator run; its standard output is the file (the scripts print the JSON).
function(generate output)
  get_filename_component(output_dir ${output} DIRECTORY)
  file(MAKE_DIRECTORY ${output_dir})
  execute_process(COMMAND ${PYTHON} ${ARGN}
                  WORKING_DIRECTORY ${work_dir}
                  OUTPUT_FILE ${output}
                  ERROR_VARIABLE errors
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    file(REMOVE_RECURSE ${out})
    message(FATAL_ERROR "perf's generator failed (${status}): ${PYTHON} ${ARGN}\n${errors}")
  endif()
endfunction()

generate(${out}/common/common/legacy-cache.json pmu-events/make_legacy_cache.py)

file(GLOB x86_entries RELATIVE ${SOURCE}/arch/x86 ${SOURCE}/arch/x86/*)
list(SORT x86_entries)
foreach(model IN LISTS x86_entries)
  if(NOT IS_DIRECTORY ${SOURCE}/arch/x86/${model})
    continue()
  endif()
  if(model MATCHES "^amdzen")
    set(script pmu-events/amd_metrics.py)
  else()
    set(script pmu-events/intel_metrics.py)
  endif()
  generate(${out}/x86/${model}/extra-metrics.json ${script} ${model} pmu-events/arch)
  generate(${out}/x86/${model}/extra-metricgroups.json ${script} -metricgroups ${model}
           pmu-events/arch)
endforeach()

file(GLOB arm_entries RELATIVE ${SOURCE}/arch/arm64/arm ${SOURCE}/arch/arm64/arm/*)
list(SORT arm_entries)
foreach(model IN LISTS arm_entries)
  if(NOT IS_DIRECTORY ${SOURCE}/arch/arm64/arm/${model} OR model MATCHES "cmn")
    continue()
  endif()
  generate(${out}/arm64/arm/${model}/extra-metrics.json pmu-events/arm64_metrics.py arm ${model}
           pmu-events/arch)
  generate(${out}/arm64/arm/${model}/extra-metricgroups.json pmu-events/arm64_metrics.py
           -metricgroups arm ${model} pmu-events/arch)
endforeach()

file(REMOVE_RECURSE ${DEST}/arch)
file(RENAME ${out} ${DEST}/arch)
file(WRITE ${STAMP} "generated from ${SOURCE}\n")
