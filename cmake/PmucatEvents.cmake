# The vendor JSON event catalogs pmucat installs: the kernel's tools/perf/pmu-events/arch
# (another project's data: never committed here). Either given as a directory, or extracted from
# Debian's linux-source tarball into the build tree once (only that path, ~15 s). The build
# compiles the JSON tree into a vendor event index (include/pmucat/vendor_index.h) with
# tools/vendor-index; the tools read the index, and it is what is installed.
#
# Sets PMUCAT_EVENTS_JSON_DIR (the JSON tree, empty when there is none), PMUCAT_EVENTS_DIR_BUILD
# (the index the build generates from it, empty when there is none) and
# PMUCAT_EVENTS_DIR_FROM_BIN (the installed index relative to the installed tools).
set(PMUCAT_PMU_EVENTS_DIR "" CACHE PATH
    "A directory laid out like the kernel's tools/perf/pmu-events/arch (empty: extract it from PMUCAT_KERNEL_SOURCE_TARBALL)")
set(PMUCAT_KERNEL_SOURCE_TARBALL "/usr/src/linux-source-6.1.tar.xz" CACHE FILEPATH
    "Kernel source tarball to take tools/perf/pmu-events/arch from when PMUCAT_PMU_EVENTS_DIR is empty")

set(PMUCAT_EVENTS_JSON_DIR "")
if(PMUCAT_PMU_EVENTS_DIR)
  if(NOT EXISTS ${PMUCAT_PMU_EVENTS_DIR}/x86/mapfile.csv)
    message(FATAL_ERROR "PMUCAT_PMU_EVENTS_DIR=${PMUCAT_PMU_EVENTS_DIR} holds no x86/mapfile.csv: "
                        "give the kernel's tools/perf/pmu-events/arch")
  endif()
  set(PMUCAT_EVENTS_JSON_DIR ${PMUCAT_PMU_EVENTS_DIR})
elseif(EXISTS ${PMUCAT_KERNEL_SOURCE_TARBALL})
  set(TARBALL ${PMUCAT_KERNEL_SOURCE_TARBALL})
  set(DEST ${CMAKE_BINARY_DIR}/pmu-events)
  include(${CMAKE_CURRENT_LIST_DIR}/PmucatExtractEvents.cmake)
  set(PMUCAT_EVENTS_JSON_DIR ${DEST}/arch)
else()
  message(STATUS "No vendor JSON event catalogs: neither PMUCAT_PMU_EVENTS_DIR nor "
                 "${PMUCAT_KERNEL_SOURCE_TARBALL} (Debian: apt install linux-source-6.1); "
                 "the tools will know sysfs events only, unless given --events-dir")
endif()

set(PMUCAT_EVENTS_DIR_BUILD "")
if(PMUCAT_EVENTS_JSON_DIR)
  set(PMUCAT_EVENTS_DIR_BUILD ${CMAKE_BINARY_DIR}/pmu-events-index)
endif()
set(PMUCAT_EVENTS_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/pmucat/pmu-events-index)
file(RELATIVE_PATH PMUCAT_EVENTS_DIR_FROM_BIN /${CMAKE_INSTALL_BINDIR} /${PMUCAT_EVENTS_INSTALL_DIR})

# Called by tools/vendor-index once its generator target exists: the build step that writes the
# index (target vendor_index, part of `all`) and its install rule. Only the index is installed,
# not the JSON: it holds every field the tools read (docs/catalog.md, "Where the events come
# from").
function(pmucat_vendor_index_rules)
  if(NOT PMUCAT_EVENTS_JSON_DIR)
    return()
  endif()
  file(GLOB_RECURSE json_inputs ${PMUCAT_EVENTS_JSON_DIR}/*.json ${PMUCAT_EVENTS_JSON_DIR}/*.csv)
  set(marker ${PMUCAT_EVENTS_DIR_BUILD}/pmucat-index.version)
  add_custom_command(OUTPUT ${marker}
    COMMAND pmucat-vendor-index ${PMUCAT_EVENTS_JSON_DIR} ${PMUCAT_EVENTS_DIR_BUILD}
    DEPENDS pmucat-vendor-index ${json_inputs}
    COMMENT "Compiling the vendor event index from ${PMUCAT_EVENTS_JSON_DIR}"
    VERBATIM)
  add_custom_target(vendor_index ALL DEPENDS ${marker})
  install(DIRECTORY ${PMUCAT_EVENTS_DIR_BUILD}/ DESTINATION ${PMUCAT_EVENTS_INSTALL_DIR}
          COMPONENT events)
endfunction()
