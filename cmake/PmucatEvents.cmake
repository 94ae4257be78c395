# The vendor JSON event catalogs pmucat installs: the kernel's tools/perf/pmu-events/arch
# (another project's data: never committed here). Either given as a directory, or extracted from
# Debian's linux-source tarball into the build tree once (only that path, ~15 s).
#
# Sets PMUCAT_EVENTS_DIR_BUILD (the directory in use, empty when there is none) and
# PMUCAT_EVENTS_DIR_FROM_BIN (the installed catalog relative to the installed tools).
set(PMUCAT_PMU_EVENTS_DIR "" CACHE PATH
    "A directory laid out like the kernel's tools/perf/pmu-events/arch (empty: extract it from PMUCAT_KERNEL_SOURCE_TARBALL)")
set(PMUCAT_KERNEL_SOURCE_TARBALL "/usr/src/linux-source-6.1.tar.xz" CACHE FILEPATH
    "Kernel source tarball to take tools/perf/pmu-events/arch from when PMUCAT_PMU_EVENTS_DIR is empty")

set(PMUCAT_EVENTS_DIR_BUILD "")
if(PMUCAT_PMU_EVENTS_DIR)
  if(NOT EXISTS ${PMUCAT_PMU_EVENTS_DIR}/x86/mapfile.csv)
    message(FATAL_ERROR "PMUCAT_PMU_EVENTS_DIR=${PMUCAT_PMU_EVENTS_DIR} holds no x86/mapfile.csv: "
                        "give the kernel's tools/perf/pmu-events/arch")
  endif()
  set(PMUCAT_EVENTS_DIR_BUILD ${PMUCAT_PMU_EVENTS_DIR})
elseif(EXISTS ${PMUCAT_KERNEL_SOURCE_TARBALL})
  set(TARBALL ${PMUCAT_KERNEL_SOURCE_TARBALL})
  set(DEST ${CMAKE_BINARY_DIR}/pmu-events)
  include(${CMAKE_CURRENT_LIST_DIR}/PmucatExtractEvents.cmake)
  set(extracted ${DEST}/arch)
  set(PMUCAT_EVENTS_DIR_BUILD ${extracted})
else()
  message(STATUS "No vendor JSON event catalogs: neither PMUCAT_PMU_EVENTS_DIR nor "
                 "${PMUCAT_KERNEL_SOURCE_TARBALL} (Debian: apt install linux-source-6.1); "
                 "the tools will know sysfs events only, unless given --events-dir")
endif()

set(PMUCAT_EVENTS_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/pmucat/pmu-events/arch)
file(RELATIVE_PATH PMUCAT_EVENTS_DIR_FROM_BIN /${CMAKE_INSTALL_BINDIR} /${PMUCAT_EVENTS_INSTALL_DIR})
if(PMUCAT_EVENTS_DIR_BUILD)
  install(DIRECTORY ${PMUCAT_EVENTS_DIR_BUILD}/ DESTINATION ${PMUCAT_EVENTS_INSTALL_DIR}
          COMPONENT events FILES_MATCHING PATTERN "*.json" PATTERN "*.csv")
endif()
