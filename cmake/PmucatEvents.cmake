# The vendor JSON event catalogs pmucat installs: the kernel's tools/perf/pmu-events/arch
# (another project's data: never committed here), in two sets: the newest perf pmucat follows
# (linux 6.12: the default catalog) and perf 6.1's (what --perf-semantics=6.1 reads). Each is
# either given as a directory or extracted from Debian's linux-source tarball into the build
# tree once (only that path, ~15 s). The build compiles each JSON tree into a vendor event index
# (include/pmucat/vendor_index.h) with tools/vendor-index, under the jevents rules of its perf;
# the tools read the indexes, and they are what is installed.
#
# Sets, for the newest set and (suffix _6_1) for perf 6.1's:
#   PMUCAT_EVENTS_JSON_DIR     the JSON tree, empty when there is none
#   PMUCAT_EVENTS_DIR_BUILD    the index the build generates from it, empty when there is none
#   PMUCAT_EVENTS_DIR_FROM_BIN the installed index relative to the installed tools
# Without linux 6.12's tables the newest set is 6.1's (the tools still know the JSON events).
set(PMUCAT_PMU_EVENTS_DIR "" CACHE PATH
    "A directory laid out like linux 6.12's tools/perf/pmu-events/arch (empty: extract it from PMUCAT_KERNEL_SOURCE_TARBALL)")
set(PMUCAT_KERNEL_SOURCE_TARBALL "/usr/src/linux-source-6.12.tar.xz" CACHE FILEPATH
    "Kernel 6.12 source tarball to take tools/perf/pmu-events/arch from when PMUCAT_PMU_EVENTS_DIR is empty")
set(PMUCAT_PMU_EVENTS_DIR_6_1 "" CACHE PATH
    "A directory laid out like linux 6.1's tools/perf/pmu-events/arch (empty: extract it from PMUCAT_KERNEL_SOURCE_TARBALL_6_1)")
set(PMUCAT_KERNEL_SOURCE_TARBALL_6_1 "/usr/src/linux-source-6.1.tar.xz" CACHE FILEPATH
    "Kernel 6.1 source tarball to take tools/perf/pmu-events/arch from when PMUCAT_PMU_EVENTS_DIR_6_1 is empty")

# One table set: the JSON tree of `version` from `given_dir`, else from `tarball`; sets
# `out_var` to it (empty when neither exists).
function(pmucat_event_tables version given_dir tarball out_var)
  set(json_dir "")
  if(given_dir)
    if(NOT EXISTS ${given_dir}/x86/mapfile.csv)
      message(FATAL_ERROR "${given_dir} holds no x86/mapfile.csv: give linux ${version}'s "
                          "tools/perf/pmu-events/arch")
    endif()
    set(json_dir ${given_dir})
  elseif(EXISTS ${tarball})
    set(TARBALL ${tarball})
    set(DEST ${CMAKE_BINARY_DIR}/pmu-events-${version})
    include(${PROJECT_SOURCE_DIR}/cmake/PmucatExtractEvents.cmake)
    set(json_dir ${DEST}/arch)
  else()
    message(STATUS "No linux ${version} vendor JSON event catalogs: neither a directory nor "
                   "${tarball} (Debian: apt install linux-source-${version})")
  endif()
  set(${out_var} ${json_dir} PARENT_SCOPE)
endfunction()

pmucat_event_tables(6.12 "${PMUCAT_PMU_EVENTS_DIR}" "${PMUCAT_KERNEL_SOURCE_TARBALL}"
                    PMUCAT_EVENTS_JSON_DIR)
pmucat_event_tables(6.1 "${PMUCAT_PMU_EVENTS_DIR_6_1}" "${PMUCAT_KERNEL_SOURCE_TARBALL_6_1}"
                    PMUCAT_EVENTS_JSON_DIR_6_1)
set(PMUCAT_EVENTS_VERSION 6.12)
if(NOT PMUCAT_EVENTS_JSON_DIR AND PMUCAT_EVENTS_JSON_DIR_6_1)
  set(PMUCAT_EVENTS_JSON_DIR ${PMUCAT_EVENTS_JSON_DIR_6_1})
  set(PMUCAT_EVENTS_VERSION 6.1)
  message(STATUS "The default vendor catalog is linux 6.1's (no linux 6.12 tables)")
elseif(NOT PMUCAT_EVENTS_JSON_DIR)
  message(STATUS "No vendor JSON event catalogs: the tools will know sysfs events only, unless "
                 "given --events-dir")
endif()

set(PMUCAT_EVENTS_DIR_BUILD "")
set(PMUCAT_EVENTS_DIR_BUILD_6_1 "")
if(PMUCAT_EVENTS_JSON_DIR)
  set(PMUCAT_EVENTS_DIR_BUILD ${CMAKE_BINARY_DIR}/pmu-events-index)
endif()
if(PMUCAT_EVENTS_JSON_DIR_6_1)
  set(PMUCAT_EVENTS_DIR_BUILD_6_1 ${CMAKE_BINARY_DIR}/pmu-events-index-6.1)
endif()
set(PMUCAT_EVENTS_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/pmucat/pmu-events-index)
set(PMUCAT_EVENTS_INSTALL_DIR_6_1 ${CMAKE_INSTALL_DATADIR}/pmucat/pmu-events-index-6.1)
file(RELATIVE_PATH PMUCAT_EVENTS_DIR_FROM_BIN /${CMAKE_INSTALL_BINDIR} /${PMUCAT_EVENTS_INSTALL_DIR})
file(RELATIVE_PATH PMUCAT_EVENTS_DIR_FROM_BIN_6_1 /${CMAKE_INSTALL_BINDIR}
     /${PMUCAT_EVENTS_INSTALL_DIR_6_1})

# Called by tools/vendor-index once its generator target exists: the build steps that write the
# indexes (target vendor_index, part of `all`) and their install rules. Only the indexes are
# installed, not the JSON: they hold every field the tools read (docs/catalog.md, "Where the
# events come from").
function(pmucat_vendor_index_rules)
  set(markers "")
  foreach(set_suffix "" "_6_1")
    set(json_dir ${PMUCAT_EVENTS_JSON_DIR${set_suffix}})
    set(index_dir ${PMUCAT_EVENTS_DIR_BUILD${set_suffix}})
    if(NOT json_dir)
      continue()
    endif()
    if(set_suffix STREQUAL "")
      set(version ${PMUCAT_EVENTS_VERSION})
      set(install_dir ${PMUCAT_EVENTS_INSTALL_DIR})
    else()
      set(version 6.1)
      set(install_dir ${PMUCAT_EVENTS_INSTALL_DIR_6_1})
    endif()
    file(GLOB_RECURSE json_inputs ${json_dir}/*.json ${json_dir}/*.csv)
    set(marker ${index_dir}/pmucat-index.version)
    add_custom_command(OUTPUT ${marker}
      COMMAND pmucat-vendor-index --rules ${version} ${json_dir} ${index_dir}
      DEPENDS pmucat-vendor-index ${json_inputs}
      COMMENT "Compiling the vendor event index of linux ${version} from ${json_dir}"
      VERBATIM)
    list(APPEND markers ${marker})
    install(DIRECTORY ${index_dir}/ DESTINATION ${install_dir} COMPONENT events)
  endforeach()
  if(markers)
    add_custom_target(vendor_index ALL DEPENDS ${markers})
  endif()
endfunction()

# The tree the unit tests written against linux 6.1's tables read: 6.1's set when the build has
# it (their counts and models are that kernel's), else the default one.
set(PMUCAT_TEST_TABLES_JSON ${PMUCAT_EVENTS_JSON_DIR})
set(PMUCAT_TEST_TABLES_INDEX ${PMUCAT_EVENTS_DIR_BUILD})
if(PMUCAT_EVENTS_JSON_DIR_6_1)
  set(PMUCAT_TEST_TABLES_JSON ${PMUCAT_EVENTS_JSON_DIR_6_1})
  set(PMUCAT_TEST_TABLES_INDEX ${PMUCAT_EVENTS_DIR_BUILD_6_1})
endif()
